# lu_report.s: what node 0 does once the factorization is timed (included
# by lu_common.s, whose lu_* words and parameters it reads): after the
# version's gather has put every block into node 0's copy of the matrix
# (lu_matrix, the model's block layout), the checksum, the solve check and
# the printed results.

    .text

# lu_element(a0 = i, a1 = j) -> a0 = the address of element (i, j) of node
# 0's matrix: block (i / B, j / B) at (I + J nb) B² doubles, the element at
# (i mod B) + (j mod B) B inside.
lu_element:
    li t0, LU_KB
    divu t1, a0, t0             # I
    remu a0, a0, t0
    divu t2, a1, t0             # J
    remu a1, a1, t0
    lw t3, lu_nb
    mul t2, t2, t3
    add t1, t1, t2
    mul t1, t1, t0
    add t1, t1, a1
    mul t1, t1, t0
    add a0, a0, t1
    slli a0, a0, 3
    la t0, lu_matrix
    add a0, a0, t0
    ret

# LU_NEXT_ROW p, i: p from element (i, j) to (i + 1, j) of the same column,
# i the new row (t0 clobbered): the next block row starts B² - B doubles on.
.macro LU_NEXT_ROW p, i
    addi \p, \p, 8
    li t0, LU_KB
    remu t0, \i, t0
    bnez t0, 91f
    li t0, 8 * (LU_KB * LU_KB - LU_KB)
    add \p, \p, t0
91:
.endm

# lu_checksum_of() -> lu_checksum: the sum of all entries in column-major
# order, from +0. s0 = j, s1 = i, s2 = the element.
lu_checksum_of:
    FRAME_ENTER
    fcvt.d.w ft1, zero
    li s0, 0
1:  li a0, 0
    mv a1, s0
    call lu_element
    mv s2, a0
    li s1, 0
2:  fld ft0, 0(s2)
    fadd.d ft1, ft1, ft0
    addi s1, s1, 1
    LU_NEXT_ROW s2, s1
    li t0, LU_N
    bltu s1, t0, 2b
    addi s0, s0, 1
    bltu s0, t0, 1b
    fsd ft1, lu_checksum, t0
    FRAME_LEAVE

# lu_solve_check() -> lu_solve_error: y = rhs; forward with L (y_j /=
# L(j,j), then y_i -= L(i,j) y_j for i > j), back with unit U (j
# descending, y_i -= U(i,j) y_j for i < j); the largest |y_i - 1|.
# s0 = j, s1 = i, s2 = the element (i, j), s3 = y, s4 = &y_j.
lu_solve_check:
    FRAME_ENTER
    lw s3, lu_yvec
    lw t0, lu_rhs
    li t1, LU_N * 8
    add t1, t1, t0
    mv t2, s3
0:  fld ft0, 0(t0)
    fsd ft0, 0(t2)
    addi t0, t0, 8
    addi t2, t2, 8
    bne t0, t1, 0b
    li s0, 0                    # forward
1:  mv a0, s0
    mv a1, s0
    call lu_element
    mv s2, a0
    slli s4, s0, 3
    add s4, s4, s3
    fld ft0, 0(s4)
    fld ft1, 0(s2)
    fdiv.d ft0, ft0, ft1
    fsd ft0, 0(s4)
    mv s1, s0
    mv t1, s4
2:  addi s1, s1, 1
    li t0, LU_N
    bgeu s1, t0, 3f
    LU_NEXT_ROW s2, s1
    addi t1, t1, 8
    fld ft1, 0(s2)
    fmul.d ft1, ft1, ft0
    fld ft2, 0(t1)
    fsub.d ft2, ft2, ft1
    fsd ft2, 0(t1)
    j 2b
3:  addi s0, s0, 1
    li t0, LU_N
    bltu s0, t0, 1b
    li s0, LU_N                 # back, j descending
4:  addi s0, s0, -1
    bltz s0, 6f
    li a0, 0
    mv a1, s0
    call lu_element
    mv s2, a0
    slli s4, s0, 3
    add s4, s4, s3
    fld ft0, 0(s4)
    li s1, 0
    mv t1, s3
5:  bgeu s1, s0, 4b
    fld ft1, 0(s2)
    fmul.d ft1, ft1, ft0
    fld ft2, 0(t1)
    fsub.d ft2, ft2, ft1
    fsd ft2, 0(t1)
    addi t1, t1, 8
    addi s1, s1, 1
    LU_NEXT_ROW s2, s1
    j 5b
6:  li t0, 1                    # max |y - 1|
    fcvt.d.w ft3, t0
    fcvt.d.w ft4, zero
    li t1, LU_N * 8
    add t1, t1, s3
7:  fld ft0, 0(s3)
    fsub.d ft0, ft0, ft3
    fabs.d ft0, ft0
    fmax.d ft4, ft4, ft0
    addi s3, s3, 8
    bne s3, t1, 7b
    fsd ft4, lu_solve_error, t0
    FRAME_LEAVE

# lu_print_text(a0 = string)
lu_print_text:
    li a7, LU_PRINT_STRING
    ecall
    ret

# lu_print_number(a0 = integer): " " then the integer
lu_print_number:
    mv t0, a0
    li a0, ' '
    li a7, LU_PRINT_CHAR
    ecall
    mv a0, t0
    li a7, LU_PRINT_INT
    ecall
    ret

# lu_print_value(fa0): " " then the double (shortest round-trip form)
lu_print_value:
    li a0, ' '
    li a7, LU_PRINT_CHAR
    ecall
    li a7, LU_PRINT_DOUBLE
    ecall
    ret

lu_newline:
    li a0, '\n'
    li a7, LU_PRINT_CHAR
    ecall
    ret

# lu_finish(a0 = the version's name): node 0 computes the checksum and the
# solve check from its gathered matrix and prints a title line, then the
# results a line each, a name and its values (the form the stressmarks
# crate's `Printed` reads): `solve_error`, `checksum`, `matrix` (when
# LU_PRINT_MATRIX: n values a line, the columns in order) and
# `timed_cycles`.
lu_finish:
    FRAME_ENTER
    mv s0, a0
    call lu_checksum_of
    call lu_solve_check
    la a0, lu_title_text
    call lu_print_text
    mv a0, s0
    call lu_print_text
    la a0, lu_on_text
    call lu_print_text
    lw a0, lu_w
    li a7, LU_PRINT_INT
    ecall
    li a0, 'x'
    li a7, LU_PRINT_CHAR
    ecall
    lw a0, lu_h
    li a7, LU_PRINT_INT
    ecall
    la a0, lu_n_text
    call lu_print_text
    li a0, LU_N
    li a7, LU_PRINT_INT
    ecall
    la a0, lu_b_text
    call lu_print_text
    li a0, LU_B
    li a7, LU_PRINT_INT
    ecall
    call lu_newline
    la a0, lu_solve_text
    call lu_print_text
    fld fa0, lu_solve_error, t0
    call lu_print_value
    call lu_newline
    la a0, lu_checksum_text
    call lu_print_text
    fld fa0, lu_checksum, t0
    call lu_print_value
    call lu_newline
    .if LU_PRINT_MATRIX
    li s1, 0                    # j
1:  la a0, lu_matrix_text
    call lu_print_text
    li a0, 0
    mv a1, s1
    call lu_element
    mv s2, a0
    li s3, 0                    # i
2:  fld fa0, 0(s2)
    call lu_print_value
    addi s3, s3, 1
    LU_NEXT_ROW s2, s3
    li t0, LU_N
    bltu s3, t0, 2b
    call lu_newline
    addi s1, s1, 1
    li t0, LU_N
    bltu s1, t0, 1b
    .endif
    la a0, lu_cycles_text
    call lu_print_text
    lw a0, lu_cycles
    call lu_print_number
    call lu_newline
    FRAME_LEAVE

    .section .rodata
lu_title_text: .asciz "lu ("
lu_on_text: .asciz ") on "
lu_n_text: .asciz ": n "
lu_b_text: .asciz ", B "
lu_solve_text: .asciz "solve_error"
lu_checksum_text: .asciz "checksum"
lu_matrix_text: .asciz "matrix"
lu_cycles_text: .asciz "timed_cycles"
    .text
