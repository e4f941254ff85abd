# cg_gen.s: the Matrix input (stressmarks-spec.md section 3, "Input"),
# generated on every tile from the whole random stream: the off-diagonal
# pairs (a hash set of the pairs drawn keeps them distinct), the diagonal,
# then b. The tile keeps its rows, i = node + l P, in CRS (columns
# ascending, the diagonal in place), b and r on its rows, and p = b on every
# row. Included by cg_common.s, whose cg_* words it fills.

    .equ CG_HASH_MULTIPLIER, 0x9E3779B1     # Fibonacci hashing
    .equ CG_EPS_F32, 0x2edbe6ff             # 1e-10 as an f32
    .equ CG_BIG_F32, 0x50fd51da             # 3.4e10 as an f32

    .section .rodata
    .p2align 3
cg_range_f64:
    .dword 0x421faa3b50000000               # 3.4e10 as an f64
    .text

# CG_GEN_APPEND: (t0 = row l, t1 = column, fa0 = value) onto the list at s8,
# or stop the run when it reaches the limit s9.
.macro CG_GEN_APPEND
    addi t2, s8, 16
    bgtu t2, s9, cg_gen_no_memory
    sw t0, 0(s8)
    sw t1, 4(s8)
    fsd fa0, 8(s8)
    mv s8, t2
.endm

# cg_generate(): the three groups of draws, in the spec's order.
cg_generate:
    addi sp, sp, -16
    sw ra, 12(sp)
    li t0, CG_DIM               # hi = f32(3.4e10 / dim), lo = -hi
    fcvt.d.w ft0, t0
    la t0, cg_range_f64
    fld ft1, 0(t0)
    fdiv.d ft1, ft1, ft0
    fcvt.s.d ft1, ft1
    fneg.s ft0, ft1
    la t0, cg_hi
    fsw ft1, 0(t0)
    la t0, cg_lo
    fsw ft0, 0(t0)
    li a0, CG_SEED
    la a1, cg_rng
    call ran1_init
    call cg_gen_pairs
    call cg_build_crs
    call cg_gen_diagonal
    call cg_gen_b
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_gen_pairs(): group 1. For each of the nnz/2 pairs, i = randInt(1,
# dim-1), j = randInt(0, i-1), moved on while taken; then
# A[i][j] = A[j][i] = randomNonZeroFloat(lo, hi, 1e-10). The node lists
# (row l, column, value) for the entries in its rows at cg_tmp.
# s0 = pairs left, s1 = i, s2 = j, s3 = dim, s4 = P, s5 = node, s6 = the
# hash set, s7 = its shift, s8 = the list's end, s9 = the memory's limit,
# s10 = the set's mask, s11 = the generator; fs0 = lo, fs1 = hi, fs2 = eps.
cg_gen_pairs:
    CG_ENTER
    li s0, CG_PAIRS
    li s3, CG_DIM
    lw s4, cg_np
    lw s5, cg_node
    lw s6, cg_hash
    lw s7, cg_hash_shift
    lw s8, cg_tmp
    lw s9, cg_limit
    lw s10, cg_hash_mask
    la s11, cg_rng
    la t0, cg_lo
    flw fs0, 0(t0)
    la t0, cg_hi
    flw fs1, 0(t0)
    li t0, CG_EPS_F32
    fmv.w.x fs2, t0
    mv t0, s6                   # the set starts empty (a slot holds key + 1)
    addi t1, s10, 1
    slli t1, t1, 2
    add t1, t1, t0
1:  sw zero, 0(t0)
    addi t0, t0, 4
    bne t0, t1, 1b
2:  beqz s0, 9f
    mv a0, s11
    li a1, 1
    addi a2, s3, -1
    call rand_int
    mv s1, a0
    mv a0, s11
    li a1, 0
    addi a2, s1, -1
    call rand_int
    mv s2, a0
3:  mul t0, s1, s3              # key i dim + j
    add t0, t0, s2
    li t1, CG_HASH_MULTIPLIER
    mul t1, t1, t0
    srl t1, t1, s7
    addi t0, t0, 1
4:  slli t2, t1, 2
    add t2, t2, s6
    lw t3, 0(t2)
    beqz t3, 6f                 # not taken: take it
    beq t3, t0, 5f
    addi t1, t1, 1
    and t1, t1, s10
    j 4b
5:  addi s1, s1, 1              # taken: the spec's next pair
    bne s1, s3, 3b
    addi s2, s2, 1
    addi t0, s3, -1
    beq s2, t0, 55f
    addi s1, s2, 1
    j 3b
55: li s1, 1
    li s2, 0
    j 3b
6:  sw t0, 0(t2)
    mv a0, s11
    fmv.s fa0, fs0
    fmv.s fa1, fs1
    fmv.s fa2, fs2
    call random_non_zero_float
    fcvt.d.s fa0, fa0
    addi s0, s0, -1
    remu t0, s1, s4             # A[i][j] in row i
    bne t0, s5, 7f
    divu t0, s1, s4
    mv t1, s2
    CG_GEN_APPEND
7:  remu t0, s2, s4             # A[j][i] in row j
    bne t0, s5, 2b
    divu t0, s2, s4
    mv t1, s1
    CG_GEN_APPEND
    j 2b
9:  sw s8, cg_tmp_end, t0
    CG_LEAVE

cg_gen_no_memory:
    la a0, cg_error_memory
    j cg_fail

# cg_build_crs(): the list into CRS. Each row gets its list entries and a
# place for the diagonal (value 0 until cg_gen_diagonal), sorted by column
# (insertion sort: rows are short); cg_rowend[l] ends up as the address of
# the end of row l's columns.
cg_build_crs:
    CG_ENTER
    lw s0, cg_tmp
    lw s1, cg_tmp_end
    lw s2, cg_nl
    lw s3, cg_rowend
    lw s4, cg_q                 # the rows' cursors (q is free until phase 1)
    sub t0, s1, s0              # entries: the list's and the diagonal
    srli t0, t0, 4
    add t0, t0, s2
    mv s5, s1                   # col, then val (8-aligned)
    sw s5, cg_col, t1
    slli t1, t0, 2
    add s6, s5, t1
    addi s6, s6, 7
    andi s6, s6, -8
    sw s6, cg_val, t1
    slli t1, t0, 3
    add t1, t1, s6
    lw t2, cg_limit
    bgtu t1, t2, cg_gen_no_memory
    mv t0, s3                   # counts: 1 each (the diagonal) ...
    slli t1, s2, 2
    add t1, t1, s3
    li t2, 1
1:  sw t2, 0(t0)
    addi t0, t0, 4
    bne t0, t1, 1b
    mv t0, s0                   # ... plus the list's
    beq t0, s1, 3f
2:  lw t2, 0(t0)
    slli t2, t2, 2
    add t2, t2, s3
    lw t3, 0(t2)
    addi t3, t3, 1
    sw t3, 0(t2)
    addi t0, t0, 16
    bne t0, s1, 2b
3:  li t0, 0                    # cursor = row start; rowend = row end
    li t2, 0
4:  slli t3, t0, 2
    add t4, t3, s3
    add t5, t3, s4
    lw t6, 0(t4)
    sw t2, 0(t5)
    add t2, t2, t6
    sw t2, 0(t4)
    addi t0, t0, 1
    bne t0, s2, 4b
    lw t0, cg_node              # the diagonals' places
    slli t0, t0, 3
    lw t1, cg_np
    slli t1, t1, 3
    mv t2, s4
    slli t3, s2, 2
    add t3, t3, s4
    fcvt.d.w ft0, zero
5:  lw t4, 0(t2)
    addi t5, t4, 1
    sw t5, 0(t2)
    slli t5, t4, 2
    add t5, t5, s5
    sw t0, 0(t5)
    slli t5, t4, 3
    add t5, t5, s6
    fsd ft0, 0(t5)
    add t0, t0, t1
    addi t2, t2, 4
    bne t2, t3, 5b
    mv t0, s0                   # the list's entries
    beq t0, s1, 7f
6:  lw t2, 0(t0)
    slli t2, t2, 2
    add t2, t2, s4
    lw t4, 0(t2)
    addi t5, t4, 1
    sw t5, 0(t2)
    lw t3, 4(t0)
    slli t3, t3, 3
    slli t5, t4, 2
    add t5, t5, s5
    sw t3, 0(t5)
    fld ft0, 8(t0)
    slli t5, t4, 3
    add t5, t5, s6
    fsd ft0, 0(t5)
    addi t0, t0, 16
    bne t0, s1, 6b
7:  li s7, 0                    # sort each row; rowend becomes an address
    li s8, 0                    # the row's first entry
8:  slli t0, s7, 2
    add t0, t0, s3
    lw s9, 0(t0)                # its end
    slli t1, s9, 2
    add t1, t1, s5
    sw t1, 0(t0)
    slli a0, s8, 2
    add a0, a0, s5
    slli a1, s8, 3
    add a1, a1, s6
    sub a2, s9, s8
    call cg_sort_row
    mv s8, s9
    addi s7, s7, 1
    bne s7, s2, 8b
    CG_LEAVE

# cg_sort_row(a0 = columns, a1 = values, a2 = entries): insertion sort of
# the (column, value) pairs by column; the columns are distinct.
cg_sort_row:
    li t0, 1
1:  bgeu t0, a2, 4f
    slli t1, t0, 2
    add t1, t1, a0
    lw t2, 0(t1)                # the key and its value
    slli t3, t0, 3
    add t3, t3, a1
    fld ft0, 0(t3)
2:  beq t1, a0, 3f              # shift the larger ones up
    lw t4, -4(t1)
    bleu t4, t2, 3f
    sw t4, 0(t1)
    fld ft1, -8(t3)
    fsd ft1, 0(t3)
    addi t1, t1, -4
    addi t3, t3, -8
    j 2b
3:  sw t2, 0(t1)
    fsd ft0, 0(t3)
    addi t0, t0, 1
    j 1b
4:  ret

# cg_gen_diagonal(): group 2. For each column c, d =
# randomNonZeroFloat(-3.4e10, 3.4e10, 1e-10); on the node's rows, with S
# the sum of the column's off-diagonal entries in ascending row (row c's in
# ascending column, A being symmetric): `dominant` takes |d| and the sum of
# magnitudes, `dis` d and the plain sum; d += S when d < S.
# s0 = c, s1 = the next own c, s2 = its row's first column, s3 = the row
# ends' cursor, s4 = P, s5 = dim, s11 = the generator; fs0 = -3.4e10,
# fs1 = 3.4e10, fs2 = eps.
cg_gen_diagonal:
    CG_ENTER
    li s0, 0
    lw s1, cg_node
    lw s2, cg_col
    lw s3, cg_rowend
    lw s4, cg_np
    li s5, CG_DIM
    la s11, cg_rng
    li t0, CG_BIG_F32
    fmv.w.x fs1, t0
    fneg.s fs0, fs1
    li t0, CG_EPS_F32
    fmv.w.x fs2, t0
1:  mv a0, s11
    fmv.s fa0, fs0
    fmv.s fa1, fs1
    fmv.s fa2, fs2
    call random_non_zero_float
    fcvt.d.s fa0, fa0           # d
    bne s0, s1, 5f
    lw a5, 0(s3)                # row c: its columns s2 .. a5
    lw t0, cg_col
    sub t0, s2, t0
    slli t0, t0, 1
    lw a4, cg_val
    add a4, a4, t0              # its values
    slli t3, s0, 3              # the diagonal's column word
    fcvt.d.w fa1, zero          # S
    mv a3, s2
2:  lw t0, 0(a3)
    bne t0, t3, 3f
    mv a6, a4                   # the diagonal's place
    j 4f
3:  fld ft0, 0(a4)
    .if CG_DIAG == 0
    fabs.d ft0, ft0
    .endif
    fadd.d fa1, fa1, ft0
4:  addi a3, a3, 4
    addi a4, a4, 8
    bne a3, a5, 2b
    .if CG_DIAG == 0
    fabs.d fa0, fa0
    .endif
    flt.d t0, fa0, fa1
    beqz t0, 45f
    fadd.d fa0, fa0, fa1
45: fsd fa0, 0(a6)
    mv s2, a5
    addi s3, s3, 4
    add s1, s1, s4
5:  addi s0, s0, 1
    bne s0, s5, 1b
    CG_LEAVE

# cg_gen_b(): group 3, b_i = randomFloat(lo, hi) for every i: p = b on
# every row, b and r = b on the node's rows; x = 0 and p's pad zeroed.
# s0 = i, s1 = the next own i, s2 = p_i, s3 = the node's b, s4 = its r,
# s5 = P, s6 = dim, s7 = x_i, s11 = the generator; fs0 = lo, fs1 = hi.
cg_gen_b:
    CG_ENTER
    li s0, 0
    lw s1, cg_node
    lw s2, cg_p
    lw s3, cg_b
    lw s4, cg_r
    lw s5, cg_np
    li s6, CG_DIM
    la s7, cg_x
    la s11, cg_rng
    la t0, cg_lo
    flw fs0, 0(t0)
    la t0, cg_hi
    flw fs1, 0(t0)
1:  mv a0, s11
    fmv.s fa0, fs0
    fmv.s fa1, fs1
    call random_float
    fcvt.d.s fa0, fa0
    fsd fa0, 0(s2)
    sw zero, 0(s7)
    sw zero, 4(s7)
    bne s0, s1, 2f
    fsd fa0, 0(s3)
    fsd fa0, 0(s4)
    addi s3, s3, 8
    addi s4, s4, 8
    add s1, s1, s5
2:  addi s0, s0, 1
    addi s2, s2, 8
    addi s7, s7, 8
    bne s0, s6, 1b
    slli t1, s5, 3              # the pad after p
    add t1, t1, s2
3:  sw zero, 0(s2)
    addi s2, s2, 4
    bne s2, t1, 3b
    CG_LEAVE

    .bss
    .p2align 2
cg_tmp_end: .zero 4
cg_lo: .zero 4          # lo, hi = f32(-/+3.4e10 / dim)
cg_hi: .zero 4
    .text
