# cg_am.s: the Matrix stressmark (conjugate gradient on a random sparse
# symmetric matrix; stressmarks-spec.md section 3, thesis 6.2.2) with active
# messages, for the original NIU:
#
#   scmp run stressmarks/matrix/cg_am.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym CG_DIM=100 --defsym CG_NNZ=400 --defsym CG_MAX_ITER=200)
#
# Parameters (.equ, --defsym): CG_SEED (-1), CG_DIM rows (10000), CG_NNZ
# off-diagonal entries requested (100000), CG_MAX_ITER (1000), CG_TOL_E9
# the tolerance in units of 1e-9 (10000: 1e-5), CG_DIAG (0 dominant, 1 the
# public code's rule). The mesh needs W + H <= the tile's contexts (16).
#
# Every tile generates the whole input with the DIS generator and keeps
# rows i = node + l P (P = W H tiles): A's rows in CRS, b, r and q on them,
# and the whole x and p (p = b at first). Node 0 drives each iteration with
# parExecute, three phase threads on every node (cg_common.s): (1) q = Ap
# on the node's rows, global sums of p.q and r.r give alpha; (2) x += alpha
# p everywhere (so x is never exchanged), r -= alpha q, global sums of r.r
# and of the residual give beta and err, and node 0 tests for the end;
# (3) p = r + beta p on the node's rows, then the gather of p below.
#
# The gather pulls, one request thread per peer: in the column step a tile
# asks each tile of its grid column for that tile's p_i, i = node' + l P;
# then it holds every i = x (mod W), and in the row step it asks each tile
# of its grid row for those (i = x' mod W). A request's handler (cg_serve)
# waits until its node's data for the step is ready, sends the low words
# and the high words of the doubles (two word-strided data messages straight
# into the requester's p), then a flag message; the requester waits for
# the flags. Because a flag can overtake its data (thesis 3.4;
# docs/libraries.md, "the flag race"), each data message carries one more
# word, a stamp (k + 1) that lands in p's pad after the vector; after a
# flag the requester also waits for the stamps, so a race costs time, never
# a wrong p, and the run counts them (`flag_races`).
#
# Results, on node 0: `cg_result` (iterations, err, sum_x: see
# cg_common.s), x at `cg_x` (dim doubles), `cg_cycles` the cycles from the
# barrier after generation until node 0 holds them; node 0 prints them.

    .include "../lib/am.s"
    .include "cg_common.s"

    .text
    .globl _start
_start:
    la a0, cg_version_name
    csrr a1, nctx
    la a2, cg_error_mesh
    j cg_main

# cg_stamp_slot(a0 = first index s, a1 = stride m) -> a0 = the element of
# p's pad where a message of the elements s, s + m, ... < dim puts its
# stamp: the first one at or after dim.
cg_stamp_slot:
    li t0, CG_DIM
    sub t0, t0, a0
    add t0, t0, a1
    addi t0, t0, -1
    divu t0, t0, a1
    mul t0, t0, a1
    add a0, a0, t0
    ret

# cg_set_stamp(a0 = first index, a1 = stride, a2 = stamp): writes the stamp
# into both words of that slot here (what cg_serve sends last).
cg_set_stamp:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a2, 8(sp)
    call cg_stamp_slot
    lw a2, 8(sp)
    slli a0, a0, 3
    lw t0, cg_p
    add a0, a0, t0
    sw a2, 0(a0)
    sw a2, 4(a0)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_await(a0 = flag address, a1 = first index, a2 = stride, a3 = stamp):
# waits for the flag, then for the stamps of both data messages; counts a
# flag that came before its data in cg_races.
cg_await:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a3, 8(sp)
1:  lw t0, 0(a0)
    beq t0, a3, 2f
    yield
    j 1b
2:  mv a0, a1
    mv a1, a2
    call cg_stamp_slot
    lw a3, 8(sp)
    slli a0, a0, 3
    lw t0, cg_p
    add a0, a0, t0
    li t2, 0                    # looked once already
3:  lw t0, 0(a0)
    lw t1, 4(a0)
    bne t0, a3, 4f
    beq t1, a3, 5f
4:  bnez t2, 45f
    li t2, 1
    lw t0, cg_races
    addi t0, t0, 1
    sw t0, cg_races, t1
45: yield
    j 3b
5:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_gather(a0 = k): the gather of p in phase 3 (the node's own p_i are
# new). s0 = stamp k + 1, s1 = x, s2 = y, s3 = W, s4 = H, s5 = P,
# s6 = node, s7 = d (the peers in turn: y + d, then x + d, mod the side),
# s8 = the peer's coordinate.
cg_gather:
    CG_ENTER
    addi s0, a0, 1
    CG_LOAD_MESH
    mv a0, s6                   # the column step: our rows are ready
    mv a1, s5
    mv a2, s0
    call cg_set_stamp
    sw s0, cg_ready_col, t0
    .ifdef CG_AM_LITERAL
    call SCMPBarrier            # every node's data for the step is ready
    .endif
    li s7, 1
1:  bgeu s7, s4, 2f             # a request to each tile of the grid column
    add s8, s2, s7
    remu s8, s8, s4
    mul a0, s8, s3
    add a0, a0, s1
    la a1, cg_serve
    li a2, 0
    mv a3, s6
    mv a4, s0
    li a5, 0
    call createThread
    addi s7, s7, 1
    j 1b
2:  li s7, 1
3:  bgeu s7, s4, 4f             # their flags and stamps
    add s8, s2, s7
    remu s8, s8, s4
    slli a0, s8, 2
    la t0, cg_flags_col
    add a0, a0, t0
    mul a1, s8, s3
    add a1, a1, s1
    mv a2, s5
    mv a3, s0
    call cg_await
    addi s7, s7, 1
    j 3b
4:  mv a0, s1                   # the row step: every i = x (mod W) is here
    mv a1, s3
    mv a2, s0
    call cg_set_stamp
    sw s0, cg_ready_row, t0
    .ifdef CG_AM_LITERAL
    call SCMPBarrier            # every node's data for the step is ready
    .endif
    li s7, 1
5:  bgeu s7, s3, 6f
    add s8, s1, s7
    remu s8, s8, s3
    mul a0, s2, s3
    add a0, a0, s8
    la a1, cg_serve
    li a2, 0
    mv a3, s6
    mv a4, s0
    li a5, 1
    call createThread
    addi s7, s7, 1
    j 5b
6:  li s7, 1
7:  bgeu s7, s3, 8f
    add s8, s1, s7
    remu s8, s8, s3
    slli a0, s8, 2
    la t0, cg_flags_row
    add a0, a0, t0
    mv a1, s8
    mv a2, s3
    mv a3, s0
    call cg_await
    addi s7, s7, 1
    j 7b
8:  CG_LEAVE

# cg_serve(a0 = requesting node, a1 = stamp, a2 = step: 0 column, 1 row):
# the request thread. Waits until this node's data for the step is ready,
# then sends p_i for i = node + l P (column) or i = x + l W (row), with the
# stamp after them, as two word-strided data messages (low words, high
# words) to the same places of the requester's p, then raises the
# requester's flag for this node (flags_col[y] or flags_row[x]).
cg_serve:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    mv s0, a0
    mv s1, a1
    la t0, cg_ready_col
    la s2, cg_flags_col
    lw s3, cg_node              # first index
    lw s4, cg_np                # stride
    lw t1, cg_yc
    beqz a2, 1f
    la t0, cg_ready_row
    la s2, cg_flags_row
    lw s3, cg_xc
    lw s4, cg_w
    lw t1, cg_xc
1:  slli t1, t1, 2
    add s2, s2, t1
    .ifndef CG_AM_LITERAL           # (literal: a barrier made it ready)
2:  lw t1, 0(t0)                # wait until the step's data is ready
    bgeu t1, s1, 3f
    yield
    j 2b
    .endif
3:  mv a0, s3                   # count: the elements and the stamp
    mv a1, s4
    call cg_stamp_slot
    sub t0, a0, s3
    divu t0, t0, s4
    addi t0, t0, 1
    sw t0, 4(sp)
    slli a1, s3, 3
    lw t1, cg_p
    add a1, a1, t1
    sw a1, 0(sp)
    mv a3, a1
    mv a0, s0
    slli a2, s4, 1
    mv a4, a2
    mv a5, t0
    call sendDataBlockNB        # low words
    lw a1, 0(sp)
    addi a1, a1, 4
    mv a3, a1
    mv a0, s0
    slli a2, s4, 1
    mv a4, a2
    lw a5, 4(sp)
    call sendDataBlockNB        # high words
    mv a0, s0
    mv a1, s2
    mv a2, s1
    call sendDataIntValue       # the flag
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    addi sp, sp, 32
    ret

# cg_version_census(), on every node at the end: node 0 gets the flag
# races of all nodes.
cg_version_census:
    addi sp, sp, -16
    sw ra, 12(sp)
    lw a0, cg_races
    call SCMPReduceSumInt
    sw a0, cg_races_total, t0
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_version_report(): node 0's `flag_races N` line.
cg_version_report:
    la a0, cg_races_text
    lw a1, cg_races_total
    li a7, CG_PRINT_STRING
    ecall
    mv a0, a1
    li a7, CG_PRINT_INT
    ecall
    li a0, '\n'
    li a7, CG_PRINT_CHAR
    ecall
    ret

    .section .rodata
    .ifdef CG_AM_LITERAL
cg_version_name: .asciz "active messages, literal"
    .else
cg_version_name: .asciz "active messages"
    .endif
cg_error_mesh: .asciz "the active-messages version needs width + height <= the tile's contexts (a node may hold its phase thread, the next one and a request thread from every peer of its grid row and column)"
cg_races_text: .asciz "flag_races "

    .bss
    .p2align 2
cg_ready_col: .zero 4       # the stamp of the node's data ready for the column step
cg_ready_row: .zero 4       # ... for the row step
cg_flags_col: .zero 4 * 32  # flags raised by the grid column's tiles, by y
cg_flags_row: .zero 4 * 32  # ... by the grid row's, by x
cg_races: .zero 4           # flags that came before their data, here
cg_races_total: .zero 4     # node 0: on every node
# The heap starts here and must stay the last thing in memory: x (the
# result, dim doubles), then what cg_setup lays out.
    .p2align 3
    .globl cg_x
cg_x:
