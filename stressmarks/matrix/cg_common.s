# cg_common.s: what both Matrix programs share (cg_am.s and cg_sr.s
# include it after their messaging library): the parameters, the setup and
# memory layout, the conjugate gradient's three phases and the end of the
# run. The input is generated in cg_gen.s, the results printed by
# cg_report.s; each version supplies the gather of p (cg_gather) and two
# hooks for its end (cg_version_census, cg_version_report).
# stressmarks-spec.md section 3; the header of cg_am.s describes the
# programs, docs/stressmarks.md the decomposition.

# Parameters (the spec's defaults; override with --defsym NAME=VALUE).
    .ifndef CG_SEED
    .equ CG_SEED, -1
    .endif
    .ifndef CG_DIM
    .equ CG_DIM, 10000
    .endif
    .ifndef CG_NNZ
    .equ CG_NNZ, 100000
    .endif
    .ifndef CG_MAX_ITER
    .equ CG_MAX_ITER, 1000
    .endif
    .ifndef CG_TOL_E9
    .equ CG_TOL_E9, 10000           # tol = CG_TOL_E9 / 1e9: 1e-5
    .endif
    .ifndef CG_DIAG
    .equ CG_DIAG, 0                 # 0: dominant, 1: dis (the public code)
    .endif

    .equ CG_PAIRS, CG_NNZ / 2
    .equ CG_STACK_BYTES, 65536      # tile.stack_bytes, the default
    .equ CG_EXIT, 93
    .equ CG_PRINT_INT, 0x5c00
    .equ CG_PRINT_CHAR, 0x5c02
    .equ CG_PRINT_STRING, 0x5c03
    .equ CG_PRINT_DOUBLE, 0x5c04

# cg_result: node 0's results, as the report prints them.
    .equ CG_RESULT_ITERATIONS, 0    # u32, the k CG stopped at
    .equ CG_RESULT_ERR, 8           # f64, ||Ax - b|| / ||b|| at the end
    .equ CG_RESULT_SUM_X, 16        # f64, the sum of x, ascending

# CG_ENTER / CG_LEAVE: a routine's frame saving ra, s0..s11 and fs0..fs2
# (CG_LEAVE returns).
.macro CG_ENTER
    FRAME_ENTER
    fsd fs0, 16(sp)
    fsd fs1, 8(sp)
    fsd fs2, 0(sp)
.endm
.macro CG_LEAVE
    FRAME_RESTORE
    fld fs0, 16(sp)
    fld fs1, 8(sp)
    fld fs2, 0(sp)
    FRAME_RETURN
.endm

    .include "../lib/dis_rng.s"
    .include "cg_gen.s"
    .include "cg_report.s"

# CG_ROW_DOT acc, vec: acc = Σ val[e] * vec[col[e]] over one CRS row, from
# +0 in ascending column, each product rounded before its add (the spec's
# row sums). a3 = the row's first column word (col holds byte offsets,
# column * 8), a4 = its first value, a5 = the end of its columns; a3 and
# a4 end at the next row's. A row has at least its diagonal. Pairs of
# entries a turn (an odd one first) keep the loop's overhead small: this
# is the stressmark's inner loop.
.macro CG_ROW_DOT acc, vec
    fcvt.d.w \acc, zero
    sub t1, a5, a3
    andi t1, t1, 4
    beqz t1, .Lcg_row_pairs\@
    lw t0, 0(a3)
    addi a3, a3, 4
    add t0, t0, \vec
    fld ft0, 0(t0)
    fld ft1, 0(a4)
    addi a4, a4, 8
    fmul.d ft0, ft1, ft0
    fadd.d \acc, \acc, ft0
    beq a3, a5, .Lcg_row_done\@
.Lcg_row_pairs\@:
    lw t0, 0(a3)
    lw t1, 4(a3)
    addi a3, a3, 8
    add t0, t0, \vec
    add t1, t1, \vec
    fld ft0, 0(t0)
    fld ft1, 0(a4)
    fld ft2, 0(t1)
    fld ft3, 8(a4)
    addi a4, a4, 16
    fmul.d ft0, ft1, ft0
    fmul.d ft2, ft3, ft2
    fadd.d \acc, \acc, ft0
    fadd.d \acc, \acc, ft2
    bne a3, a5, .Lcg_row_pairs\@
.Lcg_row_done\@:
.endm

# CG_LOAD_MESH: s1 = x, s2 = y, s3 = W, s4 = H, s5 = P, s6 = node (the
# gathers' registers).
.macro CG_LOAD_MESH
    lw s1, cg_xc
    lw s2, cg_yc
    lw s3, cg_w
    lw s4, cg_h
    lw s5, cg_np
    lw s6, cg_node
.endm

    .text

# cg_main(a0 = the version's name, a1 = the largest W + H it runs on,
# a2 = the text saying why), from _start with the boot stack: the whole
# program. Every node generates its share, all meet at a barrier (the timed
# region starts), compute nb and the first error, and node 0 starts the
# iterations; the phase threads do the rest (cg_phase1 .. cg_phase3, and
# cg_stop at the end).
cg_main:
    mv a3, a2
    mv a2, a1
    mv a1, a0
    mv a0, sp
    call cg_setup
    call cg_generate
    call SCMPBarrier
    csrr t0, cycle              # the timed region starts
    sw t0, cg_start, t1
    lw a0, cg_b                 # nb = ||b||
    call cg_sum_own_squares
    call SCMPReduceSumDouble
    fsqrt.d fa0, fa0
    la t0, cg_nb
    fsd fa0, 0(t0)
    # err = ||Ax - b|| / nb with x = 0 (it is 1)
    call cg_residual_partial
    call SCMPReduceSumDouble
    fsqrt.d fa0, fa0
    la t0, cg_nb
    fld ft0, 0(t0)
    fdiv.d fa0, fa0, ft0
    li t0, 1                    # the phase threads may start
    sw t0, cg_turn, t1
    li a0, 0
    call cg_go_on
    bnez a0, 2f
    li a0, 0
    call cg_stop
    endt
2:  lw t0, cg_node
    bnez t0, 3f
    lw a0, cg_np                # node 0: the first iteration
    la a1, cg_phase1
    li a2, 0
    call parExecute
3:  endt

# cg_go_on(a0 = k, fa0 = err) -> a0 = 1 if CG goes on (k < max_iter and
# err > tol), else 0; fa0 kept.
cg_go_on:
    li t0, CG_MAX_ITER
    bgeu a0, t0, 1f
    la t0, cg_tol
    fld ft0, 0(t0)
    flt.d a0, ft0, fa0
    ret
1:  li a0, 0
    ret

# cg_wait_turn(a0 = turn): returns once the node's phase threads before
# this one have ended (each ends with cg_next_turn). One phase thread at a
# time takes part in the collectives and uses the NIU's tables; for a
# phase 1 thread it is also the spec's wait for the local p to be complete.
cg_wait_turn:
1:  lw t0, cg_turn
    beq t0, a0, 2f
    yield
    j 1b
2:  ret

cg_next_turn:
    lw t0, cg_turn
    addi t0, t0, 1
    sw t0, cg_turn, t1
    ret

# cg_phase1(a0 = k), on every node (parExecute from node 0): q = Ap on the
# node's rows, the partial sums of p_i q_i and r_i^2, their global sums;
# node 0 forms alpha = rho / (p.q) and starts phase 2 with it.
cg_phase1:
    addi sp, sp, -48
    sw ra, 44(sp)
    sw s0, 40(sp)
    sw s1, 36(sp)
    sw s2, 32(sp)
    sw s3, 28(sp)
    fsd fs0, 16(sp)
    mv s0, a0
    li t0, 3
    mul a0, a0, t0
    addi a0, a0, 1
    call cg_wait_turn
    lw a3, cg_col
    lw a4, cg_val
    lw a6, cg_p
    lw s1, cg_rowend
    lw s2, cg_q
    lw t0, cg_node              # p_i of the node's first row
    slli t0, t0, 3
    add s3, a6, t0
    lw a7, cg_np                # the stride of its rows in p, bytes
    slli a7, a7, 3
    lw t2, cg_nl
    slli t2, t2, 3
    add t2, t2, s2              # the end of q
    fcvt.d.w fs0, zero          # sum of p_i q_i
1:  lw a5, 0(s1)
    addi s1, s1, 4
    CG_ROW_DOT fa0, a6
    fsd fa0, 0(s2)
    fld ft0, 0(s3)
    fmul.d ft0, ft0, fa0
    fadd.d fs0, fs0, ft0
    add s3, s3, a7
    addi s2, s2, 8
    bne s2, t2, 1b
    fmv.d fa0, fs0
    call SCMPReduceSumDouble
    fmv.d fs0, fa0
    lw a0, cg_r
    call cg_sum_own_squares
    call SCMPReduceSumDouble
    la t0, cg_rho               # rho = r.r, kept for beta
    fsd fa0, 0(t0)
    call cg_next_turn
    lw t0, cg_node
    bnez t0, 2f
    fdiv.d fa0, fa0, fs0        # alpha = rho / (p.q)
    fsd fa0, 8(sp)
    lw a0, cg_np
    la a1, cg_phase2
    lw a2, 8(sp)
    lw a3, 12(sp)
    mv a4, s0
    call parExecute
2:  lw ra, 44(sp)
    lw s0, 40(sp)
    lw s1, 36(sp)
    lw s2, 32(sp)
    lw s3, 28(sp)
    fld fs0, 16(sp)
    addi sp, sp, 48
    ret

# cg_sum_own_squares(a0 = a vector on the node's rows, b or r) -> fa0 =
# the sum of its squares, ascending i
cg_sum_own_squares:
    fcvt.d.w fa0, zero
    mv t0, a0
    lw t1, cg_nl
    slli t1, t1, 3
    add t1, t1, t0
1:  fld ft0, 0(t0)
    fmul.d ft0, ft0, ft0
    fadd.d fa0, fa0, ft0
    addi t0, t0, 8
    bne t0, t1, 1b
    ret

# cg_residual_partial() -> fa0 = the sum of ((Ax)_i - b_i)^2 over the
# node's rows, ascending i (the whole x is on every node).
cg_residual_partial:
    lw a3, cg_col
    lw a4, cg_val
    la a6, cg_x
    lw a7, cg_rowend
    lw t3, cg_b
    lw t2, cg_nl
    slli t2, t2, 3
    add t2, t2, t3
    fcvt.d.w fa1, zero
1:  lw a5, 0(a7)
    addi a7, a7, 4
    CG_ROW_DOT fa0, a6
    fld ft0, 0(t3)
    fsub.d fa0, fa0, ft0
    fmul.d fa0, fa0, fa0
    fadd.d fa1, fa1, fa0
    addi t3, t3, 8
    bne t3, t2, 1b
    fmv.d fa0, fa1
    ret

# cg_phase2(a0, a1 = alpha's words, a2 = k), on every node: x += alpha p
# over the whole vector (redundantly: x is never exchanged), r -= alpha q
# on the node's rows, the partial sums of r_i^2 and ((Ax)_i - b_i)^2, their
# global sums; beta = r.r / rho, err = sqrt(sum) / nb. Node 0 starts phase
# 3 with beta, or every node ends the run (the values are the same on
# every node, so every node takes the same decision).
cg_phase2:
    addi sp, sp, -48
    sw ra, 44(sp)
    sw s0, 40(sp)
    fsd fs0, 32(sp)
    fsd fs1, 24(sp)
    sw a0, 8(sp)
    sw a1, 12(sp)
    fld fs0, 8(sp)              # alpha
    mv s0, a2
    li t0, 3
    mul a0, a2, t0
    addi a0, a0, 2
    call cg_wait_turn
    la a0, cg_x                 # x += alpha p, every j (pairs, an odd first)
    lw a1, cg_p
    li t0, CG_DIM * 8
    add a2, a0, t0
    andi t0, t0, 8
    beqz t0, 1f
    fld ft0, 0(a0)
    fld ft1, 0(a1)
    fmul.d ft1, fs0, ft1
    fadd.d ft0, ft0, ft1
    fsd ft0, 0(a0)
    addi a0, a0, 8
    addi a1, a1, 8
    beq a0, a2, 2f
1:  fld ft0, 0(a0)
    fld ft1, 0(a1)
    fld ft2, 8(a0)
    fld ft3, 8(a1)
    fmul.d ft1, fs0, ft1
    fmul.d ft3, fs0, ft3
    fadd.d ft0, ft0, ft1
    fadd.d ft2, ft2, ft3
    fsd ft0, 0(a0)
    fsd ft2, 8(a0)
    addi a0, a0, 16
    addi a1, a1, 16
    bne a0, a2, 1b
2:  lw a0, cg_r                 # r -= alpha q; the sum of r_i^2
    lw a1, cg_q
    lw t0, cg_nl
    slli t0, t0, 3
    add a2, a0, t0
    fcvt.d.w fs1, zero
3:  fld ft0, 0(a0)
    fld ft1, 0(a1)
    fmul.d ft1, fs0, ft1
    fsub.d ft0, ft0, ft1
    fsd ft0, 0(a0)
    fmul.d ft0, ft0, ft0
    fadd.d fs1, fs1, ft0
    addi a0, a0, 8
    addi a1, a1, 8
    bne a0, a2, 3b
    call cg_residual_partial
    fsd fa0, 16(sp)
    fmv.d fa0, fs1
    call SCMPReduceSumDouble
    fmv.d fs1, fa0              # r'.r'
    fld fa0, 16(sp)
    call SCMPReduceSumDouble
    fsqrt.d fa0, fa0            # err = ||Ax - b|| / nb
    la t0, cg_nb
    fld ft0, 0(t0)
    fdiv.d fa0, fa0, ft0
    fsd fa0, 16(sp)
    call cg_next_turn
    addi a0, s0, 1
    fld fa0, 16(sp)
    call cg_go_on
    beqz a0, 5f
    lw t0, cg_node
    bnez t0, 6f
    la t0, cg_rho               # node 0: beta = r'.r' / rho, phase 3
    fld ft0, 0(t0)
    fdiv.d ft0, fs1, ft0
    fsd ft0, 8(sp)
    lw a0, cg_np
    la a1, cg_phase3
    lw a2, 8(sp)
    lw a3, 12(sp)
    mv a4, s0
    call parExecute
    j 6f
5:  addi a0, s0, 1
    fld fa0, 16(sp)
    call cg_stop
6:  lw ra, 44(sp)
    lw s0, 40(sp)
    fld fs0, 32(sp)
    fld fs1, 24(sp)
    addi sp, sp, 48
    ret

# cg_phase3(a0, a1 = beta's words, a2 = k), on every node: p_i = r_i +
# beta p_i on the node's rows, then the version's gather of p (cg_gather);
# once node 0 holds the whole p it starts the next iteration's phase 1.
cg_phase3:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw a0, 8(sp)
    sw a1, 12(sp)
    mv s0, a2
    li t0, 3
    mul a0, a2, t0
    addi a0, a0, 3
    call cg_wait_turn
    fld ft3, 8(sp)              # beta
    lw a0, cg_r
    lw t0, cg_nl
    slli t0, t0, 3
    add a2, a0, t0
    lw a1, cg_p
    lw t0, cg_node
    slli t0, t0, 3
    add a1, a1, t0
    lw a3, cg_np
    slli a3, a3, 3
1:  fld ft0, 0(a0)
    fld ft1, 0(a1)
    fmul.d ft1, ft3, ft1
    fadd.d ft0, ft0, ft1
    fsd ft0, 0(a1)
    addi a0, a0, 8
    add a1, a1, a3
    bne a0, a2, 1b
    mv a0, s0
    call cg_gather
    call cg_next_turn
    lw t0, cg_node
    bnez t0, 2f
    lw a0, cg_np
    la a1, cg_phase1
    addi a2, s0, 1
    call parExecute
2:  lw ra, 28(sp)
    lw s0, 24(sp)
    addi sp, sp, 32
    ret

# cg_stop(a0 = iterations, fa0 = err), on every node when CG ends: node 0
# holds the results once it has summed x (the timed region ends); then the
# version's census (a collective, so every node comes here) and node 0's
# report.
cg_stop:
    addi sp, sp, -16
    sw ra, 12(sp)
    lw t0, cg_node
    bnez t0, 3f
    la t0, cg_result
    sw a0, CG_RESULT_ITERATIONS(t0)
    fsd fa0, CG_RESULT_ERR(t0)
    fcvt.d.w fa0, zero          # sum_x, ascending
    la t1, cg_x
    li t2, CG_DIM * 8
    add t2, t2, t1
1:  fld ft0, 0(t1)
    fadd.d fa0, fa0, ft0
    addi t1, t1, 8
    bne t1, t2, 1b
    fsd fa0, CG_RESULT_SUM_X(t0)
    csrr t1, cycle
    lw t2, cg_start
    sub t1, t1, t2
    sw t1, cg_cycles, t2
3:  call cg_version_census
    lw t0, cg_node
    bnez t0, 4f
    call cg_report
4:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_setup(a0 = the initial sp of context 0, a1 = the version's name,
# a2 = its largest W + H, a3 = the text saying why): fills the cg_* words
# below and lays out the heap. Bad parameters: node 0 prints why and exits
# with code 2 (the other nodes end their thread).
cg_setup:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    sw s2, 0(sp)
    mv s0, a0
    mv s1, a2
    mv s2, a3
    sw a1, cg_version, t0
    csrr t0, nodeid
    csrr t1, meshw
    csrr t2, meshh
    sw t0, cg_node, t3
    sw t1, cg_w, t3
    sw t2, cg_h, t3
    remu t3, t0, t1
    sw t3, cg_xc, t4
    divu t3, t0, t1
    sw t3, cg_yc, t4
    mul t3, t1, t2
    sw t3, cg_np, t4
    li t4, CG_DIM
    la a0, cg_error_dim
    li t5, 2
    blt t4, t5, cg_setup_error
    li t5, 32767
    bgt t4, t5, cg_setup_error
    la a0, cg_error_tiles
    bltu t4, t3, cg_setup_error     # every node needs a row
    li t5, CG_NNZ
    la a0, cg_error_nnz
    ble t5, t4, cg_setup_error
    addi t6, t4, -1                 # nnz/2 <= dim (dim-1) / 2
    mul t6, t6, t4
    srli t6, t6, 1
    li t5, CG_PAIRS
    bgtu t5, t6, cg_setup_error
    li t5, CG_MAX_ITER
    la a0, cg_error_max_iter
    blez t5, cg_setup_error
    li t6, 65535
    bgt t5, t6, cg_setup_error
    li t5, CG_TOL_E9
    la a0, cg_error_tol
    li t6, 7001
    blt t5, t6, cg_setup_error
    li t6, 499999999
    bgt t5, t6, cg_setup_error
    li t5, CG_DIAG
    la a0, cg_error_diag
    li t6, 1
    bgtu t5, t6, cg_setup_error
    li t5, CG_SEED
    la a0, cg_error_seed
    bgez t5, cg_setup_error
    li t6, -2147483647
    blt t5, t6, cg_setup_error
    add t5, t1, t2
    mv a0, s2
    bgtu t5, s1, cg_setup_error
    li t5, CG_TOL_E9                # tol = CG_TOL_E9 / 1e9
    fcvt.d.w ft0, t5
    li t5, 1000000000
    fcvt.d.w ft1, t5
    fdiv.d ft0, ft0, ft1
    la t5, cg_tol
    fsd ft0, 0(t5)
    lw t0, cg_node                  # the node's rows: i = node + l P
    li t4, CG_DIM
    sub t5, t4, t0
    add t5, t5, t3
    addi t5, t5, -1
    divu t5, t5, t3
    sw t5, cg_nl, t6
    # The heap: x (dim), p (dim + P: the pad holds the AM gather's
    # stamps), b, r, q (the node's rows), the row ends (nl words), the
    # hash set of the generator; the generator's list and the CRS arrays
    # follow (cg_generate).
    la t0, cg_x
    slli t6, t4, 3
    add t0, t0, t6
    sw t0, cg_p, t6
    add t6, t4, t3
    slli t6, t6, 3
    add t0, t0, t6
    slli t6, t5, 3
    sw t0, cg_b, a1
    add t0, t0, t6
    sw t0, cg_r, a1
    add t0, t0, t6
    sw t0, cg_q, a1
    add t0, t0, t6
    sw t0, cg_rowend, a1
    addi t6, t5, 2                  # nl words, kept 8-aligned
    andi t6, t6, -2
    slli t6, t6, 2
    add t0, t0, t6
    sw t0, cg_hash, a1
    li t6, CG_PAIRS                 # 2^bits >= 2 pairs slots
    slli t6, t6, 1
    li a1, 1
    li a2, 0
1:  bgeu a1, t6, 2f
    slli a1, a1, 1
    addi a2, a2, 1
    j 1b
2:  li t6, 21                       # 2^21 slots are more than the memory
    la a0, cg_error_memory
    bgeu a2, t6, cg_setup_error
    li t6, 4                        # at least 2^4 slots
    bgeu a2, t6, 3f
    li a2, 4
    li a1, 16
3:  li t6, 32
    sub t6, t6, a2
    sw t6, cg_hash_shift, a3
    addi t6, a1, -1
    sw t6, cg_hash_mask, a3
    slli a1, a1, 2
    add t0, t0, a1
    sw t0, cg_tmp, a1
    csrr t1, nctx
    li t2, CG_STACK_BYTES
    mul t1, t1, t2
    sub t1, s0, t1                  # below the contexts' stacks
    sw t1, cg_limit, t2
    la a0, cg_error_memory
    bgtu t0, t1, cg_setup_error
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    lw s2, 0(sp)
    addi sp, sp, 16
    ret
cg_setup_error:
    lw t0, cg_node
    beqz t0, cg_fail
    endt

# cg_fail(a0 = text): prints "matrix: text" and exits with code 2 (bad
# parameters, or an input that does not fit in the tile's memory).
cg_fail:
    mv t0, a0
    la a0, cg_error_text
    li a7, CG_PRINT_STRING
    ecall
    mv a0, t0
    ecall
    li a0, '\n'
    li a7, CG_PRINT_CHAR
    ecall
    li a0, 2
    li a7, CG_EXIT
    ecall

    .section .rodata
cg_error_text: .asciz "matrix: "
cg_error_dim: .asciz "dim (CG_DIM) is outside 2..32767"
cg_error_tiles: .asciz "dim (CG_DIM) is smaller than the number of tiles: every tile needs a row"
cg_error_nnz: .asciz "nnz (CG_NNZ) must exceed dim and nnz/2 be at most dim (dim - 1) / 2"
cg_error_max_iter: .asciz "max_iter (CG_MAX_ITER) is outside 1..65535"
cg_error_tol: .asciz "tol_e9 (CG_TOL_E9) is outside 7001..499999999 (tol in (7e-6, 0.5))"
cg_error_diag: .asciz "diag (CG_DIAG) is neither 0 (dominant) nor 1 (dis)"
cg_error_seed: .asciz "seed (CG_SEED) is outside -2147483647..-1"
    .globl cg_error_memory
cg_error_memory: .asciz "the matrix and vectors do not fit below the contexts' stacks: use more tiles or a smaller dim or nnz"

    .bss
    .p2align 3
    .globl cg_result
cg_result: .zero 24
    .globl cg_cycles
cg_cycles: .zero 4      # node 0: cycles of the timed region
cg_start: .zero 4
cg_nb: .zero 8          # ||b||
cg_rho: .zero 8         # r.r of the iteration (phase 1, for beta)
cg_tol: .zero 8
cg_version: .zero 4     # the version's name (a string)
cg_turn: .zero 4        # the node's phase threads that have ended (cg_wait_turn)
cg_node: .zero 4
cg_w: .zero 4
cg_h: .zero 4
cg_xc: .zero 4          # the node's x and y in the mesh
cg_yc: .zero 4
cg_np: .zero 4          # P = W H
cg_nl: .zero 4          # the node's rows: node + l P, l = 0 .. nl-1
cg_p: .zero 4           # heap addresses (cg_setup, cg_generate)
cg_b: .zero 4
cg_r: .zero 4
cg_q: .zero 4
cg_rowend: .zero 4      # row l's columns end at rowend[l] (an address in col)
cg_hash: .zero 4
cg_hash_shift: .zero 4
cg_hash_mask: .zero 4
cg_tmp: .zero 4         # the generator's list of the node's entries
cg_col: .zero 4         # CRS: column * 8 of each entry, the node's rows
cg_val: .zero 4         # CRS: the values
cg_limit: .zero 4       # the heap ends below this
cg_rng: .zero DIS_RNG_STATE_BYTES
    .text
