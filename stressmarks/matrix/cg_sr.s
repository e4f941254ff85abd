# cg_sr.s: the Matrix stressmark (conjugate gradient on a random sparse
# symmetric matrix; stressmarks-spec.md section 3, thesis 6.2.2) with
# send-and-receive in Rendezvous mode, for the modified NIU:
#
#   scmp run stressmarks/matrix/cg_sr.s --mesh 4x4 --boot all --niu modified
#   (test size: --defsym CG_DIM=100 --defsym CG_NNZ=400 --defsym CG_MAX_ITER=200)
#
# Parameters, input, decomposition, phases and results as cg_am.s (CG_SEED,
# CG_DIM, CG_NNZ, CG_MAX_ITER, CG_TOL_E9, CG_DIAG; `cg_result`, `cg_x`,
# `cg_cycles` on node 0). The mesh needs W + H <= 18: a node's sends of one
# gather stay in its send table (32 entries) until the gather ends.
#
# The gather of p has no requests. Column step: a tile posts non-blocking
# receives for the p_i of each tile of its grid column (i = node' + l P,
# straight into its p), sends its own p_i to each of them, and waits for
# its receives; it then holds every i = x (mod W). Row step: the same with
# the tiles of its grid row and those elements. A double vector travels as
# two word-strided messages (low words, high words), as in cg_am.s. Ids:
# kind 1 / 2 (column step, low / high words) or 3 / 4 (row step), step k,
# index = the sender's coordinate along the step (y or x) * 64 + the
# receiver's, so that no two receives or sends of a node share an id. The
# sends are waited for and cleared at the end of the gather.

    .include "../lib/sr.s"
    .include "cg_common.s"

    .equ CG_KIND_COL_LO, 1          # the high halves: kind + 1
    .equ CG_KIND_ROW_LO, 3
    .equ CG_ID_SOURCE_SHIFT, 6

# CG_ID rd, kind, src, dst: kind << 28 | s0 (the step's bits) | src << 6 | dst
.macro CG_ID rd, kind, src, dst
    slli \rd, \src, CG_ID_SOURCE_SHIFT
    or \rd, \rd, \dst
    or \rd, \rd, s0
    li t6, \kind << SCMP_ID_KIND_SHIFT
    or \rd, \rd, t6
.endm

    .text
    .globl _start
_start:
    la a0, cg_version_name
    li a1, 18
    la a2, cg_error_mesh
    j cg_main

# The two halves of a vector of doubles travel as two messages whose ids
# differ in the kind only (low words: kind, high words: kind + 1).
    .equ CG_HIGH_HALF, 1 << SCMP_ID_KIND_SHIFT

# cg_receive_halves(a0 = the low half's id, a1 = the first double's
# address, a2 = the stride in words): posts both receives.
cg_receive_halves:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    sw a1, 4(sp)
    sw a2, 0(sp)
    call SCMPReceiveNB
    lw a0, 8(sp)
    li t0, CG_HIGH_HALF
    add a0, a0, t0
    lw a1, 4(sp)
    addi a1, a1, 4
    lw a2, 0(sp)
    call SCMPReceiveNB
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# cg_send_halves(a0 = destination node, a1 = the low half's id, a2 = the
# first double's address, a3 = the stride in words, a4 = doubles): both
# sends, non-blocking.
cg_send_halves:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw a0, 20(sp)
    sw a1, 16(sp)
    sw a2, 12(sp)
    sw a3, 8(sp)
    sw a4, 4(sp)
    call SCMPSendNB
    lw a0, 20(sp)
    lw a1, 16(sp)
    li t0, CG_HIGH_HALF
    add a1, a1, t0
    lw a2, 12(sp)
    addi a2, a2, 4
    lw a3, 8(sp)
    lw a4, 4(sp)
    call SCMPSendNB
    lw ra, 28(sp)
    addi sp, sp, 32
    ret

# cg_clear_receive_halves(a0 = the low half's id), cg_clear_send_halves(a0):
# wait until both are Complete, then clear their entries.
cg_clear_receive_halves:
    SR_WAIT_RECEIVE a0, t1
    rmr a0
    li t0, CG_HIGH_HALF
    add a0, a0, t0
    SR_WAIT_RECEIVE a0, t1
    rmr a0
    ret
cg_clear_send_halves:
    SR_WAIT_SEND a0, t1
    rms a0
    li t0, CG_HIGH_HALF
    add a0, a0, t0
    SR_WAIT_SEND a0, t1
    rms a0
    ret

# CG_PEERS label, coordinate, side: loops over the step's peers, s7 = d =
# 1 .. side-1, s8 = (coordinate + d) mod side; the body follows, then
# CG_NEXT_PEER label.
.macro CG_PEERS label, coordinate, side
    li s7, 1
\label\()_loop:
    bgeu s7, \side, \label\()_done
    add s8, \coordinate, s7
    remu s8, s8, \side
.endm
.macro CG_NEXT_PEER label
    addi s7, s7, 1
    j \label\()_loop
\label\()_done:
.endm

# cg_gather(a0 = k): the gather of p in phase 3 (the node's own p_i are
# new). s0 = the ids' step bits, s1 = x, s2 = y, s3 = W, s4 = H, s5 = P,
# s6 = node, s7 = d (the peers in turn: y + d, then x + d, mod the side),
# s8 = the peer's coordinate, s9 = p, s10 = the row step's element count.
cg_gather:
    CG_ENTER
    li t0, 0xFFFF
    and s0, a0, t0
    slli s0, s0, SCMP_ID_STEP_SHIFT
    CG_LOAD_MESH
    lw s9, cg_p
    # Column step: the peer (x, y') sends p_i, i = its node + l P.
    CG_PEERS .Lcg_col_post, s2, s4
    CG_ID a0, CG_KIND_COL_LO, s8, s2
    mul a1, s8, s3              # its node: y' W + x
    add a1, a1, s1
    slli a1, a1, 3
    add a1, a1, s9
    slli a2, s5, 1
    call cg_receive_halves
    CG_NEXT_PEER .Lcg_col_post
    CG_PEERS .Lcg_col_send, s2, s4
    mul a0, s8, s3
    add a0, a0, s1
    CG_ID a1, CG_KIND_COL_LO, s2, s8
    slli a2, s6, 3
    add a2, a2, s9
    slli a3, s5, 1
    lw a4, cg_nl
    call cg_send_halves
    CG_NEXT_PEER .Lcg_col_send
    CG_PEERS .Lcg_col_wait, s2, s4
    CG_ID a0, CG_KIND_COL_LO, s8, s2
    call cg_clear_receive_halves
    CG_NEXT_PEER .Lcg_col_wait
    # Row step: the peer (x', y) sends p_i, i = x' + l W, l < count.
    li t0, CG_DIM
    sub s10, t0, s1
    add s10, s10, s3
    addi s10, s10, -1
    divu s10, s10, s3
    CG_PEERS .Lcg_row_post, s1, s3
    CG_ID a0, CG_KIND_ROW_LO, s8, s1
    slli a1, s8, 3
    add a1, a1, s9
    slli a2, s3, 1
    call cg_receive_halves
    CG_NEXT_PEER .Lcg_row_post
    CG_PEERS .Lcg_row_send, s1, s3
    mul a0, s2, s3
    add a0, a0, s8
    CG_ID a1, CG_KIND_ROW_LO, s1, s8
    slli a2, s1, 3
    add a2, a2, s9
    slli a3, s3, 1
    mv a4, s10
    call cg_send_halves
    CG_NEXT_PEER .Lcg_row_send
    CG_PEERS .Lcg_row_wait, s1, s3
    CG_ID a0, CG_KIND_ROW_LO, s8, s1
    call cg_clear_receive_halves
    CG_NEXT_PEER .Lcg_row_wait
    # Our sends of both steps, before p changes again.
    CG_PEERS .Lcg_col_sent, s2, s4
    CG_ID a0, CG_KIND_COL_LO, s2, s8
    call cg_clear_send_halves
    CG_NEXT_PEER .Lcg_col_sent
    CG_PEERS .Lcg_row_sent, s1, s3
    CG_ID a0, CG_KIND_ROW_LO, s1, s8
    call cg_clear_send_halves
    CG_NEXT_PEER .Lcg_row_sent
    CG_LEAVE

# No census and nothing more to report in this version.
cg_version_census:
    ret
cg_version_report:
    ret

    .section .rodata
cg_version_name: .asciz "send and receive"
cg_error_mesh: .asciz "the send-and-receive version needs width + height <= 18 (a gather keeps 2 (W + H - 2) sends in the send table, which holds 32)"

    .bss
# The heap starts here and must stay the last thing in memory: x (the
# result, dim doubles), then what cg_setup lays out.
    .p2align 3
    .globl cg_x
cg_x:
