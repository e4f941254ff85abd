# tc_report.s: what node 0 prints at the end of a Transitive Closure run
# (included by tc_common.s, whose tc_* words and parameters it reads).

    .text

# tc_print_uint(a0): unsigned decimal
tc_print_uint:
    addi sp, sp, -16
    addi t0, sp, 15
    sb zero, 0(t0)
    li t1, 10
1:  remu t2, a0, t1
    divu a0, a0, t1
    addi t2, t2, '0'
    addi t0, t0, -1
    sb t2, 0(t0)
    bnez a0, 1b
    mv a0, t0
    li a7, TC_PRINT_STRING
    ecall
    addi sp, sp, 16
    ret

# tc_print_words(a0 = label, a1 = words, a2 = count): "label w0 w1 ...\n"
tc_print_words:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a1
    mv s1, a2
    li a7, TC_PRINT_STRING
    ecall
1:  beqz s1, 2f
    li a0, ' '
    li a7, TC_PRINT_CHAR
    ecall
    lw a0, 0(s0)
    call tc_print_uint
    addi s0, s0, 4
    addi s1, s1, -1
    j 1b
2:  li a0, '\n'
    li a7, TC_PRINT_CHAR
    ecall
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

# tc_report(a0 = the version's name): node 0 prints a title line with the
# parameters, then one result a line, a name and its values (the form
# the stressmarks crate's `Printed` reads): `row_sums` (n values),
# `col_sums` (n values), `timed_cycles` (tc_cycles).
tc_report:
    addi sp, sp, -16
    sw ra, 12(sp)
    mv t0, a0
    la a0, tc_title_text
    li a7, TC_PRINT_STRING
    ecall
    mv a0, t0
    ecall
    la a0, tc_on_text
    ecall
    lw a0, tc_w
    li a7, TC_PRINT_INT
    ecall
    li a0, 'x'
    li a7, TC_PRINT_CHAR
    ecall
    lw a0, tc_h
    li a7, TC_PRINT_INT
    ecall
    la a0, tc_n_text
    li a7, TC_PRINT_STRING
    ecall
    li a0, TC_N
    li a7, TC_PRINT_INT
    ecall
    la a0, tc_m_text
    li a7, TC_PRINT_STRING
    ecall
    li a0, TC_M
    li a7, TC_PRINT_INT
    ecall
    la a0, tc_wmax_text
    li a7, TC_PRINT_STRING
    ecall
    li a0, TC_WMAX
    li a7, TC_PRINT_INT
    ecall
    la a0, tc_seed_text
    li a7, TC_PRINT_STRING
    ecall
    li a0, TC_SEED
    li a7, TC_PRINT_INT
    ecall
    li a0, '\n'
    li a7, TC_PRINT_CHAR
    ecall
    la a0, tc_rows_text
    la a1, tc_result
    li a2, TC_N
    call tc_print_words
    la a0, tc_cols_text
    la a1, tc_result + 4 * TC_N
    li a2, TC_N
    call tc_print_words
    la a0, tc_cycles_text
    la a1, tc_cycles
    li a2, 1
    call tc_print_words
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

    .section .rodata
tc_title_text: .asciz "transitive closure ("
tc_on_text: .asciz ") on "
tc_n_text: .asciz ": n "
tc_m_text: .asciz ", m "
tc_wmax_text: .asciz ", wmax "
tc_seed_text: .asciz ", seed "
tc_rows_text: .asciz "row_sums"
tc_cols_text: .asciz "col_sums"
tc_cycles_text: .asciz "timed_cycles"
    .text
