# TEMPORARY, delete at merge: a private stand-in for the DIS generator
# (stressmarks/lib/dis_rng.s, written on the `sweep` branch), with the same
# contract, so that the Transitive Closure programs run before it lands here.
# At the merge, delete this file and make tc_common.s include
# "../lib/dis_rng.s" instead (one line).
#
# stressmarks-spec.md section 1 (ran1: Park-Miller with a Bays-Durham
# shuffle), ilp32d:
#   ran1_init(a0 = seed, a1 = state: 34 words)     s = max(1, -seed)
#   rand_num(a0 = state) -> fa0                    f32 in (0, 1)
#   rand_int(a0 = state, a1 = lo, a2 = hi) -> a0   lo + trunc(u *f32 f32(hi-lo+1))
# State: word 0 s, word 1 iy, words 2..33 iv[32].

    .text

# s = step(s) in a0; t0, t1 clobbered.
.macro TMP_RAN1_STEP
    li t0, 127773
    div t1, a0, t0
    mul t0, t1, t0
    sub a0, a0, t0
    li t0, 16807
    mul a0, a0, t0
    li t0, 2836
    mul t1, t1, t0
    sub a0, a0, t1
    bgez a0, 71f
    li t0, 2147483647
    add a0, a0, t0
71:
.endm

    .globl ran1_init
    .type ran1_init, @function
ran1_init:
    neg a0, a0
    bgtz a0, 1f
    li a0, 1
1:  li a2, 39                   # j counts down 39..0
2:  TMP_RAN1_STEP
    li t0, 32
    bge a2, t0, 3f
    slli t0, a2, 2
    add t0, t0, a1
    sw a0, 8(t0)                # iv[j]
3:  addi a2, a2, -1
    bgez a2, 2b
    sw a0, 0(a1)
    lw t0, 8(a1)
    sw t0, 4(a1)                # iy = iv[0]
    ret
    .size ran1_init, . - ran1_init

    .globl rand_num
    .type rand_num, @function
rand_num:
    mv a2, a0
    lw a0, 0(a2)
    TMP_RAN1_STEP
    sw a0, 0(a2)
    lw t0, 4(a2)                # j = iy >> 26
    srli t0, t0, 26
    slli t0, t0, 2
    add t0, t0, a2
    lw t1, 8(t0)                # iy = iv[j]; iv[j] = s
    sw t1, 4(a2)
    sw a0, 8(t0)
    fcvt.d.w ft0, t1
    la t0, tmp_ran1_consts
    fld ft1, 0(t0)
    fmul.d ft0, ft0, ft1, rne
    fcvt.s.d fa0, ft0, rne
    fcvt.d.s ft0, fa0
    fld ft1, 8(t0)
    flt.d t1, ft1, ft0
    beqz t1, 1f
    flw fa0, 16(t0)
1:  ret
    .size rand_num, . - rand_num

    .globl rand_int
    .type rand_int, @function
rand_int:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a1, 8(sp)
    sub t2, a2, a1
    addi t2, t2, 1
    sw t2, 4(sp)
    call rand_num
    lw t2, 4(sp)
    fcvt.s.w ft0, t2, rne
    fmul.s ft0, fa0, ft0, rne
    fcvt.w.s a0, ft0, rtz
    lw a1, 8(sp)
    add a0, a0, a1
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size rand_int, . - rand_int

    .section .rodata
    .p2align 3
tmp_ran1_consts:
    .dword 0x3e00000000200000           # 1.0 / 2147483647.0, rounded once
    .double 0.99999988                  # RNMX, 1 - EPS
    .word 0x3F7FFFFE                    # RNMX as returned
    .text
