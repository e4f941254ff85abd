# sends_check.s: the check sends_am.s and sends_sr.s share (included by
# them): the single values that came from prev.

    .text

# check_int_and_double(a0 = prev): in_int = 7 prev + 1 (int_text) and
# in_double = prev + 0.125 (double_text)
check_int_and_double:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    li a1, 7
    mul a1, a1, a0
    addi a1, a1, 1
    lw a0, in_int
    la a2, int_text
    call check_int
    la t0, in_double
    fld fa0, 0(t0)
    lw t0, 8(sp)
    fcvt.d.w fa1, t0
    la t0, eighth
    fld ft0, 0(t0)
    fadd.d fa1, fa1, ft0
    la a0, double_text
    call check_double
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

    .section .rodata
    .p2align 3
eighth: .double 0.125
    .text
