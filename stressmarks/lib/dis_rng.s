# dis_rng.s: the DIS stressmarks' random generator (stressmarks-spec.md
# section 1), bit-exact with the Rust model `stressmarks::Ran1`: Numerical
# Recipes' ran1 (Park-Miller, multiplier 16807, modulus 2^31-1, Schrage's
# method) behind a 32-entry Bays-Durham shuffle, and the DIS helpers.
#
# State block: 34 words, word-aligned, owned by the caller (one per
# independent stream; a tile that runs the whole generator keeps one):
#     0(state)   s        the Park-Miller state
#     4(state)   iy       the last shuffled output
#     8(state)   iv[32]   the shuffle table
# DIS_RNG_STATE_BYTES (136) is its size.
#
# Routines (standard ilp32d calling convention: arguments in a0.., fa0..;
# results in a0 / fa0; t0-t6, ft0-ft11, a*, fa* are clobbered; s*, fs*,
# sp and ra are preserved; frm is not read: every rounding is explicit):
#     ran1_init(a0 = seed, a1 = state*)
#         seed in [-2^31+1, -1]; any other seed starts as -1 does
#         (s = max(1, -seed)).
#     rand_num(a0 = state*) -> fa0 (f32 in (0, 1))
#         f32(f64(iy) * (1.0/2147483647.0)), the double product rounded
#         once, clamped to 0x3F7FFFFE (1 - 2^-23).
#     rand_int(a0 = state*, a1 = lo, a2 = hi) -> a0
#         DIS randomUInt: lo + trunc(u *f32 f32(hi-lo+1)); hi-lo+1 must fit
#         in 32 signed bits.
#     random_float(a0 = state*, fa0 = lo, fa1 = hi) -> fa0
#         (u *f32 (hi -f32 lo)) +f32 lo.
#     random_non_zero_float(a0 = state*, fa0 = lo, fa1 = hi, fa2 = eps) -> fa0
#         v = f32(f64(u)*f64(hi -f32 lo) + f64(lo)); when |v| < eps,
#         v +f32 eps if v >= 0, else v -f32 eps.
# No fused multiply-add anywhere: the model rounds every operation.

    .equ DIS_RNG_STATE_BYTES, 136
    .equ DIS_RNG_MODULUS, 2147483647
    .equ DIS_RNG_Q, 127773              # modulus / 16807 (Schrage)
    .equ DIS_RNG_R, 2836                # modulus % 16807
    .equ DIS_RNG_A, 16807
    .equ DIS_RNG_LARGEST, 0x3F7FFFFE    # RNMX as a float, 1 - 2^-23

    .section .rodata
    .p2align 3
dis_rng_inv_modulus:
    .dword 0x3e00000000200000           # the double 1.0/2147483647.0

    .text

# One Park-Miller step of a0 in place (k = s/q; s = a*(s - k*q) - r*k,
# plus the modulus when negative); clobbers t0, t1.
.macro DIS_RNG_STEP
    li t0, DIS_RNG_Q
    div t1, a0, t0
    mul t0, t1, t0
    sub a0, a0, t0
    li t0, DIS_RNG_A
    mul a0, a0, t0
    li t0, DIS_RNG_R
    mul t1, t1, t0
    sub a0, a0, t1
    bgez a0, 1f
    li t0, DIS_RNG_MODULUS
    add a0, a0, t0
1:
.endm

    .globl ran1_init
    .type ran1_init, @function
ran1_init:
    mv a2, a1                   # state
    neg a0, a0
    bgtz a0, 1f                 # s = max(1, -seed)
    li a0, 1
1:  li a3, 39                   # countdown j = 39..0 (8 warm-up steps, then iv[31..0])
    li a4, 32
2:  DIS_RNG_STEP
    bge a3, a4, 3f
    slli t0, a3, 2
    add t0, t0, a2
    sw a0, 8(t0)                # iv[j] = s
3:  addi a3, a3, -1
    bgez a3, 2b
    sw a0, 0(a2)                # s
    lw t0, 8(a2)
    sw t0, 4(a2)                # iy = iv[0]
    ret
    .size ran1_init, . - ran1_init

    .globl rand_num
    .type rand_num, @function
rand_num:
    mv a2, a0                   # state
    lw a0, 0(a2)
    DIS_RNG_STEP                # s
    sw a0, 0(a2)
    lw t2, 4(a2)                # iy
    srli t2, t2, 26             # j = iy >> 26 (iy is positive)
    slli t2, t2, 2
    add t2, t2, a2
    lw t3, 8(t2)                # iy = iv[j]
    sw a0, 8(t2)                # iv[j] = s
    sw t3, 4(a2)
    fcvt.d.w ft0, t3            # exact
    la t0, dis_rng_inv_modulus
    fld ft1, 0(t0)
    fmul.d ft0, ft0, ft1, rne
    fcvt.s.d fa0, ft0, rne      # the one rounding to float
    # The spec's clamp, u > 0.99999988 in double, is for positive floats
    # exactly bits >= 0x3F7FFFFE (Ran1's test shows it): clamp the bits.
    fmv.x.w t0, fa0
    li t1, DIS_RNG_LARGEST
    blt t0, t1, 1f
    fmv.w.x fa0, t1
1:  ret
    .size rand_num, . - rand_num

    .globl rand_int
    .type rand_int, @function
rand_int:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a1                   # lo
    sub s1, a2, a1
    addi s1, s1, 1              # hi - lo + 1
    call rand_num
    fcvt.s.w ft0, s1, rne
    fmul.s fa0, fa0, ft0, rne
    fcvt.w.s a0, fa0, rtz
    add a0, a0, s0
    lw s1, 4(sp)
    lw s0, 8(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size rand_int, . - rand_int

    .globl random_float
    .type random_float, @function
random_float:
    addi sp, sp, -32
    sw ra, 28(sp)
    fsd fs0, 16(sp)
    fsd fs1, 8(sp)
    fmv.s fs0, fa0              # lo
    fsub.s fs1, fa1, fa0, rne   # hi - lo
    call rand_num
    fmul.s fa0, fa0, fs1, rne
    fadd.s fa0, fa0, fs0, rne
    fld fs1, 8(sp)
    fld fs0, 16(sp)
    lw ra, 28(sp)
    addi sp, sp, 32
    ret
    .size random_float, . - random_float

    .globl random_non_zero_float
    .type random_non_zero_float, @function
random_non_zero_float:
    addi sp, sp, -32
    sw ra, 28(sp)
    fsd fs0, 16(sp)
    fsd fs1, 8(sp)
    fsd fs2, 0(sp)
    fcvt.d.s fs0, fa0           # f64(lo), exact
    fsub.s fs1, fa1, fa0, rne
    fcvt.d.s fs1, fs1           # f64(hi - lo), exact
    fmv.s fs2, fa2              # eps
    call rand_num
    fcvt.d.s ft0, fa0
    fmul.d ft0, ft0, fs1, rne
    fadd.d ft0, ft0, fs0, rne
    fcvt.s.d fa0, ft0, rne      # v
    fabs.s ft1, fa0
    flt.s t0, ft1, fs2
    beqz t0, 2f                 # |v| >= eps: v
    fmv.w.x ft1, zero
    fle.s t0, ft1, fa0
    beqz t0, 1f
    fadd.s fa0, fa0, fs2, rne   # v >= 0 (-0 included): v + eps
    j 2f
1:  fsub.s fa0, fa0, fs2, rne   # v - eps
2:  fld fs2, 0(sp)
    fld fs1, 8(sp)
    fld fs0, 16(sp)
    lw ra, 28(sp)
    addi sp, sp, 32
    ret
    .size random_non_zero_float, . - random_non_zero_float
