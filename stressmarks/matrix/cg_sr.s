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

    .equ CG_KIND_COL_LO, 1
    .equ CG_KIND_COL_HI, 2
    .equ CG_KIND_ROW_LO, 3
    .equ CG_KIND_ROW_HI, 4
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

# cg_wait_clear_receive(a0 = id), cg_wait_clear_send(a0 = id): wait until
# Complete, then clear the entry.
cg_wait_clear_receive:
    waitr a0
    rmr a0
    ret
cg_wait_clear_send:
    waits a0
    rms a0
    ret

# cg_gather(a0 = k): the gather of p in phase 3 (the node's own p_i are
# new). s0 = the ids' step bits, s1 = x, s2 = y, s3 = W, s4 = H, s5 = P,
# s6 = node, s7 = d (the peers in turn: y + d, then x + d, mod the side),
# s8 = the peer's coordinate, s9 = p, s10 = the row step's element count.
cg_gather:
    addi sp, sp, -48
    sw ra, 44(sp)
    sw s0, 40(sp)
    sw s1, 36(sp)
    sw s2, 32(sp)
    sw s3, 28(sp)
    sw s4, 24(sp)
    sw s5, 20(sp)
    sw s6, 16(sp)
    sw s7, 12(sp)
    sw s8, 8(sp)
    sw s9, 4(sp)
    sw s10, 0(sp)
    li t0, 0xFFFF
    and s0, a0, t0
    slli s0, s0, SCMP_ID_STEP_SHIFT
    lw s1, cg_xc
    lw s2, cg_yc
    lw s3, cg_w
    lw s4, cg_h
    lw s5, cg_np
    lw s6, cg_node
    lw s9, cg_p
    li s7, 1                    # column step: the receives
1:  bgeu s7, s4, 2f
    add s8, s2, s7
    remu s8, s8, s4
    CG_ID a0, CG_KIND_COL_LO, s8, s2
    mul a1, s8, s3              # its node: y' W + x
    add a1, a1, s1
    slli a1, a1, 3
    add a1, a1, s9
    slli a2, s5, 1
    call SCMPReceiveNB
    CG_ID a0, CG_KIND_COL_HI, s8, s2
    mul a1, s8, s3
    add a1, a1, s1
    slli a1, a1, 3
    add a1, a1, s9
    addi a1, a1, 4
    slli a2, s5, 1
    call SCMPReceiveNB
    addi s7, s7, 1
    j 1b
2:  li s7, 1                    # our p_i to each of them
3:  bgeu s7, s4, 4f
    add s8, s2, s7
    remu s8, s8, s4
    mul a0, s8, s3
    add a0, a0, s1
    CG_ID a1, CG_KIND_COL_LO, s2, s8
    slli a2, s6, 3
    add a2, a2, s9
    slli a3, s5, 1
    lw a4, cg_nl
    call SCMPSendNB
    mul a0, s8, s3
    add a0, a0, s1
    CG_ID a1, CG_KIND_COL_HI, s2, s8
    slli a2, s6, 3
    add a2, a2, s9
    addi a2, a2, 4
    slli a3, s5, 1
    lw a4, cg_nl
    call SCMPSendNB
    addi s7, s7, 1
    j 3b
4:  li s7, 1                    # wait for the grid column's
5:  bgeu s7, s4, 6f
    add s8, s2, s7
    remu s8, s8, s4
    CG_ID a0, CG_KIND_COL_LO, s8, s2
    call cg_wait_clear_receive
    CG_ID a0, CG_KIND_COL_HI, s8, s2
    call cg_wait_clear_receive
    addi s7, s7, 1
    j 5b
6:  li t0, CG_DIM               # row step: i = x + l W, l < count
    sub s10, t0, s1
    add s10, s10, s3
    addi s10, s10, -1
    divu s10, s10, s3
    li s7, 1
7:  bgeu s7, s3, 8f
    add s8, s1, s7
    remu s8, s8, s3
    CG_ID a0, CG_KIND_ROW_LO, s8, s1
    slli a1, s8, 3
    add a1, a1, s9
    slli a2, s3, 1
    call SCMPReceiveNB
    CG_ID a0, CG_KIND_ROW_HI, s8, s1
    slli a1, s8, 3
    add a1, a1, s9
    addi a1, a1, 4
    slli a2, s3, 1
    call SCMPReceiveNB
    addi s7, s7, 1
    j 7b
8:  li s7, 1
9:  bgeu s7, s3, 10f
    add s8, s1, s7
    remu s8, s8, s3
    mul a0, s2, s3
    add a0, a0, s8
    CG_ID a1, CG_KIND_ROW_LO, s1, s8
    slli a2, s1, 3
    add a2, a2, s9
    slli a3, s3, 1
    mv a4, s10
    call SCMPSendNB
    mul a0, s2, s3
    add a0, a0, s8
    CG_ID a1, CG_KIND_ROW_HI, s1, s8
    slli a2, s1, 3
    add a2, a2, s9
    addi a2, a2, 4
    slli a3, s3, 1
    mv a4, s10
    call SCMPSendNB
    addi s7, s7, 1
    j 9b
10: li s7, 1
11: bgeu s7, s3, 12f
    add s8, s1, s7
    remu s8, s8, s3
    CG_ID a0, CG_KIND_ROW_LO, s8, s1
    call cg_wait_clear_receive
    CG_ID a0, CG_KIND_ROW_HI, s8, s1
    call cg_wait_clear_receive
    addi s7, s7, 1
    j 11b
12: li s7, 1                    # our sends, before p changes again
13: bgeu s7, s4, 14f
    add s8, s2, s7
    remu s8, s8, s4
    CG_ID a0, CG_KIND_COL_LO, s2, s8
    call cg_wait_clear_send
    CG_ID a0, CG_KIND_COL_HI, s2, s8
    call cg_wait_clear_send
    addi s7, s7, 1
    j 13b
14: li s7, 1
15: bgeu s7, s3, 16f
    add s8, s1, s7
    remu s8, s8, s3
    CG_ID a0, CG_KIND_ROW_LO, s1, s8
    call cg_wait_clear_send
    CG_ID a0, CG_KIND_ROW_HI, s1, s8
    call cg_wait_clear_send
    addi s7, s7, 1
    j 15b
16: lw ra, 44(sp)
    lw s0, 40(sp)
    lw s1, 36(sp)
    lw s2, 32(sp)
    lw s3, 28(sp)
    lw s4, 24(sp)
    lw s5, 20(sp)
    lw s6, 16(sp)
    lw s7, 12(sp)
    lw s8, 8(sp)
    lw s9, 4(sp)
    lw s10, 0(sp)
    addi sp, sp, 48
    ret

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
