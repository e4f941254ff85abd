# cg_report.s: what node 0 prints at the end of a Matrix run (included by
# cg_common.s, whose cg_* words and parameters it reads): a title line
# with the parameters, then one result a line, a name and its values (the
# form the stressmarks crate's `Printed` reads).

    .text

# cg_print_text_int(a0 = text, a1 = value): "text" then the value in decimal
cg_print_text_int:
    li a7, CG_PRINT_STRING
    ecall
    mv a0, a1
    li a7, CG_PRINT_INT
    ecall
    ret

# cg_print_double_line(a0 = name, a1 = the double's address): "name v\n"
cg_print_double_line:
    li a7, CG_PRINT_STRING
    ecall
    li a0, ' '
    li a7, CG_PRINT_CHAR
    ecall
    fld fa0, 0(a1)
    li a7, CG_PRINT_DOUBLE
    ecall
    li a0, '\n'
    li a7, CG_PRINT_CHAR
    ecall
    ret

# cg_report(): node 0's report: `iterations`, `err`, `sum_x`, `x` (dim
# values), `timed_cycles`, then the version's own lines
# (cg_version_report).
cg_report:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    la a0, cg_title_text
    li a7, CG_PRINT_STRING
    ecall
    lw a0, cg_version
    ecall
    la a0, cg_on_text
    lw a1, cg_w
    call cg_print_text_int
    la a0, cg_by_text
    lw a1, cg_h
    call cg_print_text_int
    la a0, cg_dim_text
    li a1, CG_DIM
    call cg_print_text_int
    la a0, cg_nnz_text
    li a1, CG_NNZ
    call cg_print_text_int
    la a0, cg_max_iter_text
    li a1, CG_MAX_ITER
    call cg_print_text_int
    la a0, cg_tol_text
    li a1, CG_TOL_E9
    call cg_print_text_int
    la a0, cg_diag_text
    li a1, CG_DIAG
    call cg_print_text_int
    la a0, cg_seed_text
    li a1, CG_SEED
    call cg_print_text_int
    la a0, cg_iterations_text
    lw a1, cg_result + CG_RESULT_ITERATIONS
    call cg_print_text_int
    la a0, cg_err_text
    la a1, cg_result + CG_RESULT_ERR
    call cg_print_double_line
    la a0, cg_sum_x_text
    la a1, cg_result + CG_RESULT_SUM_X
    call cg_print_double_line
    la a0, cg_x_text
    li a7, CG_PRINT_STRING
    ecall
    la s0, cg_x
    li s1, CG_DIM * 8
    add s1, s1, s0
1:  li a0, ' '
    li a7, CG_PRINT_CHAR
    ecall
    fld fa0, 0(s0)
    li a7, CG_PRINT_DOUBLE
    ecall
    addi s0, s0, 8
    bne s0, s1, 1b
    la a0, cg_cycles_text
    lw a1, cg_cycles
    call cg_print_text_int
    li a0, '\n'
    li a7, CG_PRINT_CHAR
    ecall
    call cg_version_report
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

    .section .rodata
cg_title_text: .asciz "matrix ("
cg_on_text: .asciz ") on "
cg_by_text: .asciz "x"
cg_dim_text: .asciz ": dim "
cg_nnz_text: .asciz ", nnz "
cg_max_iter_text: .asciz ", max_iter "
cg_tol_text: .asciz ", tol_e9 "
cg_diag_text: .asciz ", diag "
cg_seed_text: .asciz ", seed "
cg_iterations_text: .asciz "\niterations "
cg_err_text: .asciz "\nerr"
cg_sum_x_text: .asciz "sum_x"
cg_x_text: .asciz "x"
cg_cycles_text: .asciz "\ntimed_cycles "
    .text
