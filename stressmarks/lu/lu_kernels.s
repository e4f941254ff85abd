# lu_kernels.s: the four block operations of the LU stressmark
# (stressmarks-spec.md section 5, "Computation"), on B x B blocks of doubles,
# contiguous and column-major inside (element (i, j) at 8 (i + j B) bytes).
# Included by lu_common.s, which defines LU_KB (the block side B, an
# assembly-time constant: the loops over a column's rows are unrolled for
# it).
#
# Every routine works a column at a time with (up to 16 rows of) the column
# in f0..f15, so an update a(i,j) -= s * x(i) costs a load, a multiply and
# a subtract. Each element gets its updates in ascending k with the product
# rounded before the subtraction (no fused multiply-add), and its division
# where the spec's loop puts it, so the results are bit-identical to the
# spec's loop order (the spec: any order that keeps each element's sequence
# gives the same bits). Columns longer than 16 rows go in chunks of 16.
#
# Calling convention: a0..a5, t0..t3, f0..f7, f10..f17 clobbered; f8, f9
# (fs0, fs1) are saved and restored.

    .equ LU_CHUNK, 16

# LU_CHUNK_ROWS r0: sets LU_C to the rows of the chunk starting at row r0.
.macro LU_CHUNK_ROWS r0
    .set LU_C, LU_KB - \r0
    .if LU_C > LU_CHUNK
    .set LU_C, LU_CHUNK
    .endif
.endm

# f(m) = column[r0 + m], m < LU_C (base: the column's first element)
.macro LU_COL_LOAD base, r0
    .irp m, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if \m < LU_C
    fld f\m, 8*(\r0+\m)(\base)
    .endif
    .endr
.endm

.macro LU_COL_STORE base, r0
    .irp m, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if \m < LU_C
    fsd f\m, 8*(\r0+\m)(\base)
    .endif
    .endr
.endm

# f(m) -= f16 * src[r0 + m] for every row of the chunk (src: a column)
.macro LU_COL_AXPY src, r0
    .irp m, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if \m < LU_C
    fld f17, 8*(\r0+\m)(\src)
    fmul.d f17, f16, f17
    fsub.d f\m, f\m, f17
    .endif
    .endr
.endm

# f(m) -= f(kk) * src[r0 + m] for the rows m > kk of the chunk
.macro LU_COL_AXPY_BELOW src, r0, kk
    .irp m, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if (\m > \kk) && (\m < LU_C)
    fld f17, 8*(\r0+\m)(\src)
    fmul.d f17, f\kk, f17
    fsub.d f\m, f\m, f17
    .endif
    .endr
.endm

# The chunks of a column: LU_CHUNK_BODY r0 once per chunk start.
.macro LU_FOR_CHUNKS body
    .irp r0, 0,16,32,48,64,80,96,112
    .if \r0 < LU_KB
    LU_CHUNK_ROWS \r0
    \body \r0
    .endif
    .endr
.endm

.macro LU_SAVE_FS
    addi sp, sp, -16
    fsd fs0, 0(sp)
    fsd fs1, 8(sp)
.endm

.macro LU_RESTORE_FS
    fld fs0, 0(sp)
    fld fs1, 8(sp)
    addi sp, sp, 16
.endm

    .text

# lu_interior(a0 = A, a1 = L, a2 = U): A -= L U (step 4). Column j of A:
# for k ascending, A(:,j) -= U(k,j) L(:,k).
.macro LU_INTERIOR_CHUNK r0
    LU_COL_LOAD a0, \r0
    mv t0, a1                   # L(:,k)
    mv t1, a2                   # &U(k,j)
2:  fld f16, 0(t1)
    LU_COL_AXPY t0, \r0
    addi t0, t0, 8 * LU_KB
    addi t1, t1, 8
    bne t1, t2, 2b
    LU_COL_STORE a0, \r0
.endm

    .type lu_interior, @function
lu_interior:
    LU_SAVE_FS
    li t3, 8 * LU_KB * LU_KB
    add a5, a0, t3              # the end of A
1:  addi t2, a2, 8 * LU_KB      # the end of U(:,j)
    LU_FOR_CHUNKS LU_INTERIOR_CHUNK
    addi a0, a0, 8 * LU_KB
    addi a2, a2, 8 * LU_KB
    bne a0, a5, 1b
    LU_RESTORE_FS
    ret
    .size lu_interior, . - lu_interior

# lu_col_perimeter(a0 = A, a1 = D): A = A U⁻¹ with U the unit upper part
# of D (step 2). Column j of A: for k < j ascending, A(:,j) -= D(k,j) A(:,k)
# (columns k < j are final by then).
.macro LU_COL_PERIMETER_CHUNK r0
    LU_COL_LOAD a0, \r0
    mv t0, a2                   # A(:,k)
    mv t1, a3                   # &D(k,j)
    beq t0, a0, 3f
2:  fld f16, 0(t1)
    LU_COL_AXPY t0, \r0
    addi t0, t0, 8 * LU_KB
    addi t1, t1, 8
    bne t0, a0, 2b
3:  LU_COL_STORE a0, \r0
.endm

    .type lu_col_perimeter, @function
lu_col_perimeter:
    LU_SAVE_FS
    mv a2, a0                   # A(:,0)
    mv a3, a1                   # D(:,j)
    li t3, 8 * LU_KB * LU_KB
    add a5, a0, t3
1:  LU_FOR_CHUNKS LU_COL_PERIMETER_CHUNK
    addi a0, a0, 8 * LU_KB
    addi a3, a3, 8 * LU_KB
    bne a0, a5, 1b
    LU_RESTORE_FS
    ret
    .size lu_col_perimeter, . - lu_col_perimeter

# lu_row_perimeter(a0 = A, a1 = D): A = L⁻¹ A with L the lower part of D,
# diagonal included (step 3). Column j of A, forward substitution: for k
# ascending, A(k,j) /= D(k,k), then A(i,j) -= A(k,j) D(i,k) for i > k.
# Rows of earlier chunks are final (stored) when a chunk starts.
.macro LU_ROW_PERIMETER_CHUNK r0
    LU_COL_LOAD a0, \r0
    .if \r0 > 0
    mv t0, a1                   # D(:,k), k < r0
    mv t1, a0                   # &A(k,j)
    addi t2, a0, 8 * \r0
2:  fld f16, 0(t1)
    LU_COL_AXPY t0, \r0
    addi t0, t0, 8 * LU_KB
    addi t1, t1, 8
    bne t1, t2, 2b
    .endif
    li t0, 8 * LU_KB * \r0
    add t0, t0, a1              # D(:,r0)
    .irp kk, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if \kk < LU_C
    fld f17, 8*(\r0+\kk)(t0)
    fdiv.d f\kk, f\kk, f17
    LU_COL_AXPY_BELOW t0, \r0, \kk
    addi t0, t0, 8 * LU_KB
    .endif
    .endr
    LU_COL_STORE a0, \r0
.endm

    .type lu_row_perimeter, @function
lu_row_perimeter:
    LU_SAVE_FS
    li t3, 8 * LU_KB * LU_KB
    add a5, a0, t3
1:  LU_FOR_CHUNKS LU_ROW_PERIMETER_CHUNK
    addi a0, a0, 8 * LU_KB
    bne a0, a5, 1b
    LU_RESTORE_FS
    ret
    .size lu_row_perimeter, . - lu_row_perimeter

# lu_factor_diag(a0 = D): D = L U in place, L lower with its diagonal, U
# unit upper (step 1). Column j: for k < j ascending, D(k,j) /= D(k,k),
# then D(i,j) -= D(k,j) D(i,k) for i > k (columns k < j are final).
# a1 = D(:,0), a3 = j.
.macro LU_FACTOR_DIAG_CHUNK r0
    LU_COL_LOAD a0, \r0
    .if \r0 > 0
    mv t2, a3                   # rows k < min(r0, j): every chunk row is below
    li t0, \r0
    bleu t2, t0, 4f
    mv t2, t0
4:  slli t2, t2, 3
    add t2, t2, a0              # &D(min, j)
    mv t0, a1                   # D(:,k)
    mv t1, a0                   # &D(k,j)
    beq t1, t2, 5f
2:  fld f16, 0(t1)
    LU_COL_AXPY t0, \r0
    addi t0, t0, 8 * LU_KB
    addi t1, t1, 8
    bne t1, t2, 2b
5:
    .endif
    li t0, 8 * LU_KB * \r0
    add t0, t0, a1              # D(:,r0)
    .irp kk, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if \kk < LU_C
    li t3, \r0 + \kk            # only k < j
    bgeu t3, a3, 9f
    fld f17, 8*(\r0+\kk)(t0)
    fdiv.d f\kk, f\kk, f17
    LU_COL_AXPY_BELOW t0, \r0, \kk
    addi t0, t0, 8 * LU_KB
    .endif
    .endr
9:  LU_COL_STORE a0, \r0
.endm

    .type lu_factor_diag, @function
lu_factor_diag:
    LU_SAVE_FS
    mv a1, a0
    li a3, 0
    li t3, 8 * LU_KB * LU_KB
    add a5, a0, t3
1:  LU_FOR_CHUNKS LU_FACTOR_DIAG_CHUNK
    addi a0, a0, 8 * LU_KB
    addi a3, a3, 1
    bne a0, a5, 1b
    LU_RESTORE_FS
    ret
    .size lu_factor_diag, . - lu_factor_diag
