# nb_texture.s: entropy and energy (stressmarks-spec section 2,
# "Computation"): each node's share over its own bins, the global sums,
# and the natural logarithm they need (RV32G has none). Included by
# nb_common.s (its nb_* words and parameters).

    .text

# nb_ln(fa0 = x, a positive normal double) -> fa0 = ln x
#   x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(t) with
#   t = (m - 1) / (m + 1), |t| <= 0.1716: 2t + 2t t^2 (1/3 + t^2/5 + ...
#   + t^18/21), the series' next term below 1e-18 of the sum; then
#   e ln 2 in two parts (fdlibm's split, e ln2_hi exact). Every operation
#   rounds to nearest (no fused multiply-add). Clobbers t0..t2, ft0..ft4.
nb_ln:
    addi sp, sp, -16
    fsd fa0, 0(sp)
    lw t0, 4(sp)                    # the high word: sign, exponent, top of m
    srli t1, t0, 20
    addi t1, t1, -1023              # e
    li t2, 0x000fffff
    and t0, t0, t2
    li t2, 0x3ff00000
    or t0, t0, t2                   # m in [1, 2)
    li t2, 0x3ff6a09e               # above sqrt(2): m / 2, e + 1
    blt t0, t2, 1f
    li t2, 0x00100000
    sub t0, t0, t2
    addi t1, t1, 1
1:  sw t0, 4(sp)
    fld ft0, 0(sp)                  # m
    la t0, nb_ln_constants
    fld ft1, 0(t0)                  # 1.0
    fsub.d ft2, ft0, ft1, rne
    fadd.d ft3, ft0, ft1, rne
    fdiv.d ft2, ft2, ft3, rne       # t
    fadd.d ft2, ft2, ft2, rne       # s = 2t
    fmul.d ft3, ft2, ft2, rne       # s^2 = 4 t^2
    fld ft1, 8(t0)                  # 0.25
    fmul.d ft3, ft3, ft1, rne       # t^2 (exact: a power of two)
    fld ft4, 16(t0)                 # 1/21
    addi t2, t0, 24
    li t0, 9
2:  fmul.d ft4, ft4, ft3, rne       # Horner: 1/19, 1/17, ..., 1/3
    fld ft1, 0(t2)
    fadd.d ft4, ft4, ft1, rne
    addi t2, t2, 8
    addi t0, t0, -1
    bnez t0, 2b
    fmul.d ft4, ft4, ft3, rne       # t^2 (1/3 + ...)
    fmul.d ft4, ft4, ft2, rne
    fadd.d fa0, ft2, ft4, rne       # ln m
    fcvt.d.w ft0, t1, rne           # e, exact
    la t0, nb_ln_constants
    fld ft1, 104(t0)                # ln2_lo
    fmul.d ft1, ft1, ft0, rne
    fadd.d fa0, fa0, ft1, rne
    fld ft1, 96(t0)                 # ln2_hi
    fmul.d ft1, ft1, ft0, rne
    fadd.d fa0, fa0, ft1, rne
    addi sp, sp, 16
    ret

# nb_texture_partial(a0 = class): over this node's bins, ascending, the
# sum bin before the difference bin: for a non-zero count, s = count/N
# (count times the double 1/N), H -= s ln s, and Es (sum) or Ed (diff)
# += s^2, as the spec orders them; into nb_partial. Also the debug
# checksums of our bins, sum (i+1) count[i] mod 2^32, into nb_check.
nb_texture_partial:
    addi sp, sp, -80
    sw ra, 76(sp)
    sw s0, 72(sp)
    sw s1, 68(sp)
    sw s2, 64(sp)
    sw s3, 60(sp)
    sw s4, 56(sp)
    sw s5, 52(sp)
    fsd fs0, 40(sp)
    fsd fs1, 32(sp)
    fsd fs2, 24(sp)
    fsd fs3, 16(sp)
    fsd fs4, 8(sp)
    mv s5, a0
    call nb_class_offsets
    srai t0, a0, 31                 # N = (dim - |dy|) (dim - |dx|)
    xor a0, a0, t0
    sub a0, a0, t0
    li t1, NB_DIM
    sub a0, t1, a0
    sub a1, t1, a1
    mul a0, a0, a1
    fcvt.d.wu ft0, a0, rne
    la t0, nb_ln_constants
    fld ft1, 0(t0)
    fdiv.d fs3, ft1, ft0, rne       # scale = 1/N
    fcvt.d.w fs0, zero              # H
    fcvt.d.w fs1, zero              # Es
    fcvt.d.w fs2, zero              # Ed
    lw s0, nb_b0                    # bin index
    lw s1, nb_blen
    add s1, s1, s0                  # the end
    li s3, 0                        # sum checksum
    li s4, 0                        # diff checksum
    beq s0, s1, 9f
1:  slli t0, s0, 2
    lw t1, nb_sum
    add t1, t1, t0
    lw t1, 0(t1)
    addi t2, s0, 1
    mul t3, t2, t1
    add s3, s3, t3
    beqz t1, 2f
    fcvt.d.wu ft0, t1, rne
    fmul.d fs4, ft0, fs3, rne       # s
    fmv.d fa0, fs4
    call nb_ln
    fmul.d fa0, fs4, fa0, rne
    fsub.d fs0, fs0, fa0, rne
    fmul.d ft0, fs4, fs4, rne
    fadd.d fs1, fs1, ft0, rne
2:  slli t0, s0, 2
    lw t1, nb_diff
    add t1, t1, t0
    lw t1, 0(t1)
    addi t2, s0, 1
    mul t3, t2, t1
    add s4, s4, t3
    beqz t1, 3f
    fcvt.d.wu ft0, t1, rne
    fmul.d fs4, ft0, fs3, rne
    fmv.d fa0, fs4
    call nb_ln
    fmul.d fa0, fs4, fa0, rne
    fsub.d fs0, fs0, fa0, rne
    fmul.d ft0, fs4, fs4, rne
    fadd.d fs2, fs2, ft0, rne
3:  addi s0, s0, 1
    bne s0, s1, 1b
9:  la t0, nb_partial
    fsd fs0, 0(t0)
    fsd fs1, 8(t0)
    fsd fs2, 16(t0)
    la t0, nb_check
    slli t1, s5, 2
    add t0, t0, t1
    sw s3, 0(t0)
    sw s4, 4 * NB_CLASSES(t0)
    lw ra, 76(sp)
    lw s0, 72(sp)
    lw s1, 68(sp)
    lw s2, 64(sp)
    lw s3, 60(sp)
    lw s4, 56(sp)
    lw s5, 52(sp)
    fld fs0, 40(sp)
    fld fs1, 32(sp)
    fld fs2, 24(sp)
    fld fs3, 16(sp)
    fld fs4, 8(sp)
    addi sp, sp, 80
    ret

# nb_reduce_class(a0 = class): the global sums of H, Es and Ed (three
# all-reduces); entropy f32(H) and energy f32(Es Ed) into nb_result.
nb_reduce_class:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    fsd fs0, 16(sp)
    fsd fs1, 8(sp)
    mv s0, a0
    la t0, nb_partial
    fld fa0, 0(t0)
    call SCMPReduceSumDouble
    fmv.d fs0, fa0                  # H
    la t0, nb_partial
    fld fa0, 8(t0)
    call SCMPReduceSumDouble
    fmv.d fs1, fa0                  # Es
    la t0, nb_partial
    fld fa0, 16(t0)
    call SCMPReduceSumDouble
    fmul.d fs1, fs1, fa0, rne       # Es Ed
    la t0, nb_result
    slli t1, s0, 2
    add t0, t0, t1
    fcvt.s.d ft0, fs0, rne
    fsw ft0, 0(t0)
    fcvt.s.d ft0, fs1, rne
    fsw ft0, 4 * NB_CLASSES(t0)
    lw ra, 28(sp)
    lw s0, 24(sp)
    fld fs0, 16(sp)
    fld fs1, 8(sp)
    addi sp, sp, 32
    ret

# nb_reduce_checks(): the 16 debug checksums, summed over the nodes
# (wrapping: exact), in place in nb_check.
nb_reduce_checks:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    la s0, nb_check
1:  lw a0, 0(s0)
    call SCMPReduceSumInt
    sw a0, 0(s0)
    addi s0, s0, 4
    la t0, nb_check + 8 * NB_CLASSES
    bne s0, t0, 1b
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

    .section .rodata
    .p2align 3
nb_ln_constants:
    .dword 0x3ff0000000000000       # 1.0
    .dword 0x3fd0000000000000       # 0.25
    .dword 0x3fa8618618618618       # 1/21
    .dword 0x3faaf286bca1af28       # 1/19
    .dword 0x3fae1e1e1e1e1e1e       # 1/17
    .dword 0x3fb1111111111111       # 1/15
    .dword 0x3fb3b13b13b13b14       # 1/13
    .dword 0x3fb745d1745d1746       # 1/11
    .dword 0x3fbc71c71c71c71c       # 1/9
    .dword 0x3fc2492492492492       # 1/7
    .dword 0x3fc999999999999a       # 1/5
    .dword 0x3fd5555555555555       # 1/3
    .dword 0x3fe62e42fee00000       # ln2_hi (96)
    .dword 0x3dea39ef35793c76       # ln2_lo (104)
    .text
