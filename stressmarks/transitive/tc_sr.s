# tc_sr.s: the Transitive Closure stressmark (Floyd-Warshall over a random
# directed graph; stressmarks-spec.md section 4, thesis 6.2.3) with
# send-and-receive in Rendezvous mode, for the modified NIU:
#
#   scmp run stressmarks/transitive/tc_sr.s --mesh 4x4 --boot all --niu modified
#   (test size: --defsym TC_N=40 --defsym TC_M=100)
#
# Parameters, input, decomposition and results as tc_am.s (TC_SEED, TC_N,
# TC_M, TC_WMAX; `tc_result`, `tc_cycles` on node 0). The mesh needs
# W + H <= 18 (the gather's receives must fit node 0's receive table).
#
# At step k the owner of row k over grid column x, (x, y_k), sends it
# (contiguous) to every other tile of its grid column, and the owner of
# column k over grid row y, (x_k, y), sends it (one word a block row apart)
# to every other tile of its grid row, non-blocking; every other tile has
# posted its receives for step k during step k-1, into buffers that
# alternate with the parity of k, and waits for them. An owner waits for its
# sends to complete before step k+1 changes its block. Ids: kind 1 (row) or
# 2 (column), step k, index = the receiver's y (row) or x (column). The
# gather is tc_am.s's with receives posted first: kind 3 (row sums, by
# sender x), 4 (column sums, by y), 5 (final row sums, by y), 6 (final
# column sums, by x).

    .include "../lib/sr.s"
    .include "tc_common.s"

    .equ TC_KIND_ROW, 1
    .equ TC_KIND_COL, 2
    .equ TC_KIND_GATHER_ROW, 3
    .equ TC_KIND_GATHER_COL, 4
    .equ TC_KIND_FINAL_ROW, 5
    .equ TC_KIND_FINAL_COL, 6

# rd = kind << 28 | step << 12 | index (registers step and index)
.macro TC_ID rd, kind, step, index
    slli \rd, \step, SCMP_ID_STEP_SHIFT
    or \rd, \rd, \index
    li t6, \kind << SCMP_ID_KIND_SHIFT
    or \rd, \rd, t6
.endm

# TC_SEND_PEERS kind, peers, own, first, step, segment, stride, words:
# SCMPSendNB of step s0's segment (registers segment, stride and words) to
# the tiles first + i * step, i = 0 .. peers-1 but own (registers), with id
# (kind, k, i). An expansion, not a call: it is on the critical path.
# first, step and stride are kept in the frame across the calls.
.macro TC_SEND_PEERS kind, peers, own, first, step, segment, stride, words
    sw \first, 4(sp)
    sw \step, 8(sp)
    sw \stride, 12(sp)
    li t5, 0
81: beq t5, \own, 82f
    lw t0, 4(sp)
    lw t1, 8(sp)
    mul a0, t5, t1
    add a0, a0, t0
    TC_ID a1, \kind, s0, t5
    mv a2, \segment
    lw a3, 12(sp)
    mv a4, \words
    sw t5, 0(sp)
    call SCMPSendNB
    lw t5, 0(sp)
82: addi t5, t5, 1
    bltu t5, \peers, 81b
.endm

# TC_FINISH_PEERS kind, peers, own: waits for TC_SEND_PEERS's sends of step
# s0 and clears them.
.macro TC_FINISH_PEERS kind, peers, own
    li t5, 0
83: beq t5, \own, 84f
    TC_ID a0, \kind, s0, t5
    sw t5, 0(sp)
    sw a0, 4(sp)
    call SCMPWaitSend
    lw a0, 4(sp)
    call SCMPClearSend
    lw t5, 0(sp)
84: addi t5, t5, 1
    bltu t5, \peers, 83b
.endm

    .text
    .globl _start
_start:
    la a0, tc_steps_sr
    la a1, tc_gather_sr
    la a2, tc_version
    li a3, 1
    j tc_main

# tc_owners(a0 = k) -> a0 = y_k, a1 = x_k: who owns row k and column k
tc_owners:
    addi t0, a0, 1
    lw t1, tc_h
    mul t1, t1, t0
    addi t1, t1, -1
    li t2, TC_N
    divu t1, t1, t2
    lw a1, tc_w
    mul a1, a1, t0
    addi a1, a1, -1
    divu a1, a1, t2
    mv a0, t1
    ret

# tc_post(a0 = k): posts the receives of step k that this tile needs, into
# the buffers of k's parity.
tc_post:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, a0
    call tc_owners
    lw t0, tc_y
    beq a0, t0, 1f
    TC_ID a0, TC_KIND_ROW, s0, t0
    andi t1, s0, 1              # row buffer k mod 2
    lw t2, tc_cmax
    mul t1, t1, t2
    slli t1, t1, 2
    lw t2, tc_rowbuf
    add a1, t1, t2
    li a2, 1
    call SCMPReceiveNB
    mv a0, s0                   # again: a1 = x_k
    call tc_owners
1:  lw t0, tc_x
    beq a1, t0, 2f
    TC_ID a0, TC_KIND_COL, s0, t0
    andi t1, s0, 1
    lw t2, tc_rmax
    mul t1, t1, t2
    slli t1, t1, 2
    lw t2, tc_colbuf
    add a1, t1, t2
    li a2, 1
    call SCMPReceiveNB
2:  lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

# The n steps. s0 = k, s1 = x, s2 = y, s3 = W, s4 = H, s5 = lc, s6 = lr,
# s7 = row k's pointer, s8 = column k's pointer, s9 = its stride (bytes),
# s10 = y_k, s11 = x_k.
tc_steps_sr:
    TC_ENTER
    li a0, 0
    call tc_post
    li s0, 0
1:  addi a0, s0, 1              # step k+1's receives, into the other buffers
    li t0, TC_N
    bgeu a0, t0, 2f
    call tc_post
2:  mv a0, s0
    call tc_owners
    mv s10, a0
    mv s11, a1
    andi t0, s0, 1              # the buffers of step k
    lw t1, tc_cmax
    mul t1, t1, t0
    slli t1, t1, 2
    lw s7, tc_rowbuf
    add s7, s7, t1
    lw t1, tc_rmax
    mul t1, t1, t0
    slli t1, t1, 2
    lw s8, tc_colbuf
    add s8, s8, t1
    li s9, 4
    bne s10, s2, 4f
    lw t1, tc_r0                # we own row k: send it down our grid column
    sub t1, s0, t1
    mul t1, t1, s5
    slli t1, t1, 2
    lw s7, tc_block
    add s7, s7, t1
    li t4, 1
    TC_SEND_PEERS TC_KIND_ROW, s4, s2, s1, s3, s7, t4, s5
4:  bne s11, s1, 6f
    lw t1, tc_c0                # we own column k: send it along our grid row
    sub t1, s0, t1
    slli t1, t1, 2
    lw s8, tc_block
    add s8, s8, t1
    slli s9, s5, 2
    mul t3, s2, s3
    li t4, 1
    TC_SEND_PEERS TC_KIND_COL, s3, s1, t3, t4, s8, s5, s6
6:  beq s10, s2, 7f             # wait for what we do not own
    TC_ID a0, TC_KIND_ROW, s0, s2
    sw a0, 0(sp)
    call SCMPWaitReceive
    lw a0, 0(sp)
    call SCMPClearReceive
7:  beq s11, s1, 8f
    TC_ID a0, TC_KIND_COL, s0, s1
    sw a0, 0(sp)
    call SCMPWaitReceive
    lw a0, 0(sp)
    call SCMPClearReceive
8:  mv a0, s7
    mv a1, s8
    mv a2, s9
    call tc_relax
    bne s10, s2, 10f            # our sends must be done before step k+1
    TC_FINISH_PEERS TC_KIND_ROW, s4, s2
10: bne s11, s1, 12f
    TC_FINISH_PEERS TC_KIND_COL, s3, s1
12: addi s0, s0, 1
    li t0, TC_N
    bltu s0, t0, 1b
    TC_LEAVE

# The gather (as tc_am.s's, with receives): every receive this tile will
# take is posted first. s0 = loop index, s1 = x, s2 = y, s3 = W, s4 = H,
# s5 = lc, s6 = lr, s7 = node.
tc_gather_sr:
    TC_ENTER
    lw s7, tc_node
    bnez s1, 2f                 # column 0: its grid row's row sums
    li s0, 1
1:  bgeu s0, s3, 2f
    mv a0, s0
    call tc_gather_row_slot
    mv a1, a0
    TC_ID a0, TC_KIND_GATHER_ROW, zero, s0
    li a2, 1
    call SCMPReceiveNB
    addi s0, s0, 1
    j 1b
2:  bnez s2, 4f                 # row 0: its grid column's column sums
    li s0, 1
3:  bgeu s0, s4, 4f
    mv a0, s0
    call tc_gather_col_slot
    mv a1, a0
    TC_ID a0, TC_KIND_GATHER_COL, zero, s0
    li a2, 1
    call SCMPReceiveNB
    addi s0, s0, 1
    j 3b
4:  bnez s7, 8f                 # node 0: the final sums, in place
    li s0, 1
5:  bgeu s0, s4, 6f
    li a0, TC_N                 # rows of grid row s0
    mv a1, s4
    mv a2, s0
    call tc_split
    slli a0, a0, 2
    la a1, tc_result
    add a1, a1, a0
    TC_ID a0, TC_KIND_FINAL_ROW, zero, s0
    li a2, 1
    call SCMPReceiveNB
    addi s0, s0, 1
    j 5b
6:  li s0, 1
7:  bgeu s0, s3, 8f
    li a0, TC_N                 # columns of grid column s0
    mv a1, s3
    mv a2, s0
    call tc_split
    li t0, TC_N
    add a0, a0, t0
    slli a0, a0, 2
    la a1, tc_result
    add a1, a1, a0
    TC_ID a0, TC_KIND_FINAL_COL, zero, s0
    li a2, 1
    call SCMPReceiveNB
    addi s0, s0, 1
    j 7b
8:  beqz s1, 9f                 # our row sums to (0, y)
    mul a0, s2, s3
    TC_ID a1, TC_KIND_GATHER_ROW, zero, s1
    call tc_row_sums
    mv a2, a0
    mul a0, s2, s3
    TC_ID a1, TC_KIND_GATHER_ROW, zero, s1
    li a3, 1
    mv a4, s6
    call tc_send_and_clear
9:  beqz s2, 10f                # our column sums to (x, 0)
    call tc_col_sums
    mv a2, a0
    mv a0, s1
    TC_ID a1, TC_KIND_GATHER_COL, zero, s2
    li a3, 1
    mv a4, s5
    call tc_send_and_clear
10: bnez s1, 12f                # column 0 adds its grid row's row sums
    li s0, 1
11: bgeu s0, s3, 12f
    TC_ID a0, TC_KIND_GATHER_ROW, zero, s0
    call tc_wait_and_clear
    mv a0, s0
    call tc_gather_row_slot
    mv a1, a0
    call tc_row_sums
    mv a2, s6
    call tc_add_words
    addi s0, s0, 1
    j 11b
12: bnez s2, 14f                # row 0 adds its grid column's column sums
    li s0, 1
13: bgeu s0, s4, 14f
    TC_ID a0, TC_KIND_GATHER_COL, zero, s0
    call tc_wait_and_clear
    mv a0, s0
    call tc_gather_col_slot
    mv a1, a0
    call tc_col_sums
    mv a2, s5
    call tc_add_words
    addi s0, s0, 1
    j 13b
14: bnez s1, 15f                # (0, y), y > 0: the row sums to node 0
    beqz s2, 15f
    call tc_row_sums
    mv a2, a0
    li a0, 0
    TC_ID a1, TC_KIND_FINAL_ROW, zero, s2
    li a3, 1
    mv a4, s6
    call tc_send_and_clear
15: bnez s2, 16f                # (x, 0), x > 0: the column sums to node 0
    beqz s1, 16f
    call tc_col_sums
    mv a2, a0
    li a0, 0
    TC_ID a1, TC_KIND_FINAL_COL, zero, s1
    li a3, 1
    mv a4, s5
    call tc_send_and_clear
16: bnez s7, 19f                # node 0 waits for them
    li s0, 1
17: bgeu s0, s4, 18f
    TC_ID a0, TC_KIND_FINAL_ROW, zero, s0
    call tc_wait_and_clear
    addi s0, s0, 1
    j 17b
18: li s0, 1
181:bgeu s0, s3, 19f
    TC_ID a0, TC_KIND_FINAL_COL, zero, s0
    call tc_wait_and_clear
    addi s0, s0, 1
    j 181b
19: TC_LEAVE

# tc_send_and_clear(SCMPSend's arguments): SCMPSend, then SCMPClearSend
tc_send_and_clear:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a1, 8(sp)
    call SCMPSend
    lw a0, 8(sp)
    call SCMPClearSend
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# tc_wait_and_clear(a0 = id): SCMPWaitReceive, then SCMPClearReceive
tc_wait_and_clear:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    call SCMPWaitReceive
    lw a0, 8(sp)
    call SCMPClearReceive
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

    .section .rodata
tc_version: .asciz "send and receive"

    .bss
    .p2align 2
# The heap starts here and must stay the last thing in memory: tc_result
# (n row sums, n column sums), then what tc_setup lays out.
    .p2align 3
    .globl tc_result
tc_result:
