# lu_sr.s: the LU stressmark (SPLASH-2's blocked LU without pivoting;
# stressmarks-spec.md section 5, thesis 6.3) with send-and-receive, for the
# modified NIU; lu_sr_rdv.s (Rendezvous mode) and lu_sr_ready.s (Ready
# mode, with the thesis's barrier before the sends) include it:
#
#   scmp run stressmarks/lu/lu_sr_rdv.s --mesh 4x4 --boot all --niu modified
#   (test size: --defsym LU_N=64 --defsym LU_B=8)
#
# Parameters, input, distribution and results as lu_am.s (LU_N, LU_B,
# LU_PRINT_MATRIX; `lu_matrix`, `lu_checksum`, `lu_solve_error`,
# `lu_cycles` on node 0). The mesh may be at most 16 wide and 16 high and n
# / B at most 256 (the message ids' index field).
#
# For each K, data is pushed (the spec's SR steps): a tile posts its
# receives (D if it owns a perimeter block but not D; each L_IK and U_KJ its
# interior blocks need and it does not own), the owner of D factors it and
# sends it to the perimeter owners of its grid row and column, they divide
# their blocks and send each U_KJ down its grid column and each L_IK along
# its grid row to the tiles with interior blocks there, and every tile
# waits for its blocks and updates its interior. The receive and send
# tables hold 32 entries, so the blocks after K go in phases of
# LU_SR_WINDOW min(W, H) block indices (a tile posts at most 2
# LU_SR_WINDOW + 1 receives at once; every phase's receives are posted
# before that phase's sends are waited for, so the phases cannot deadlock),
# and a tile keeps at most LU_SR_SENDS sends in flight. In Ready mode
# every phase has a barrier between posting and sending (every receive is
# posted before any data arrives). Ids: kind 1 (D; index = the receiver),
# 2 (L_IK; index = li << 4 | the receiver's x), 3 (U_KJ; index = lj << 4 |
# the receiver's y), step K; 4 for the untimed gather (step J, index I).

    .include "../lib/sr.s"
    .include "lu_common.s"

    .ifndef LU_SR_WINDOW
    .equ LU_SR_WINDOW, 8            # block indices per phase, per min(W, H)
    .endif
    .ifndef LU_SR_SENDS
    .equ LU_SR_SENDS, 8             # sends in flight per tile (a power of 2)
    .endif
    .equ LU_KIND_D, 1
    .equ LU_KIND_L, 2
    .equ LU_KIND_U, 3
    .equ LU_KIND_GATHER, 4

# rd = kind << 28 | step << 12 | index (registers step and index; t6)
.macro LU_ID rd, kind, step, index
    slli \rd, \step, SCMP_ID_STEP_SHIFT
    or \rd, \rd, \index
    li t6, \kind << SCMP_ID_KIND_SHIFT
    or \rd, \rd, t6
.endm

    .text
    .globl _start
_start:
    li a0, LU_READY
    call SCMPSetMode
    la a0, lu_factor_sr
    la a1, lu_gather_sr
    la a2, lu_version
    j lu_main

# The nb iterations. s0 = K, s1 = the phase's first index, s2 = its end,
# s3 = the span of a phase.
lu_factor_sr:
    FRAME_ENTER
    lw t0, lu_w                 # the ids' fields
    lw t1, lu_h
    li t2, 16
    la a1, lu_error_mesh
    bgtu t0, t2, 9f
    bgtu t1, t2, 9f
    lw t2, lu_nb
    li t3, 256
    la a1, lu_error_nb
    bgtu t2, t3, 9f
    bleu t0, t1, 1f             # span = LU_SR_WINDOW min(W, H)
    mv t0, t1
1:  li s3, LU_SR_WINDOW
    mul s3, s3, t0
    li s0, 0
2:  mv a0, s0
    call lu_iteration
    lw t0, lu_need_d
    beqz t0, 3f
    lw t0, lu_node
    LU_ID a0, LU_KIND_D, s0, t0
    lw a1, lu_dbuf
    li a2, 1
    call SCMPReceiveNB
3:  addi s1, s0, 1
4:  add s2, s1, s3              # a phase: indices [s1, s2)
    lw t0, lu_nb
    bleu s2, t0, 5f
    mv s2, t0
5:  mv a0, s1
    mv a1, s2
    la a2, lu_post_sr
    call lu_for_needed
    .if LU_READY
    call SCMPBarrier
    .endif
    addi t0, s0, 1
    bne s1, t0, 6f
    call lu_send_diag           # the first phase: D
6:  mv a0, s1
    mv a1, s2
    la a2, lu_send_block
    call lu_divide
    mv a0, s1
    mv a1, s2
    la a2, lu_wait_sr
    call lu_for_needed
    mv s1, s2                   # (the last K has one phase, D alone)
    lw t0, lu_nb
    bltu s1, t0, 4b
    call lu_update_interior
    call lu_drain_sends
    addi s0, s0, 1
    lw t0, lu_nb
    bltu s0, t0, 2b
    FRAME_LEAVE
9:  call lu_setup_error

# lu_send_diag(): the owner of D factors it and sends it to the perimeter
# owners of its grid row and column; the others wait for theirs.
lu_send_diag:
    FRAME_ENTER
    lw t0, lu_is_downer
    beqz t0, 5f
    call lu_diag
    mv s0, a0
    call lu_factor_diag
    lw s1, lu_k
    lw s2, lu_x
    lw s3, lu_y
    lw s4, lu_w
    lw s5, lu_h
    li s6, 0                    # x' of the row-perimeter owners
1:  bgeu s6, s4, 3f
    beq s6, s2, 2f
    mv a0, s1
    mv a1, s6
    mv a2, s4
    call lu_has_after
    beqz a0, 2f
    mul a0, s3, s4
    add a0, a0, s6
    LU_ID a1, LU_KIND_D, s1, a0
    mv a2, s0
    call lu_send
2:  addi s6, s6, 1
    j 1b
3:  li s6, 0                    # y' of the column-perimeter owners
31: bgeu s6, s5, 6f
    beq s6, s3, 4f
    mv a0, s1
    mv a1, s6
    mv a2, s5
    call lu_has_after
    beqz a0, 4f
    mul a0, s6, s4
    add a0, a0, s2
    LU_ID a1, LU_KIND_D, s1, a0
    mv a2, s0
    call lu_send
4:  addi s6, s6, 1
    j 31b
5:  lw t0, lu_need_d
    beqz t0, 6f
    lw t0, lu_node
    lw t1, lu_k
    LU_ID a0, LU_KIND_D, t1, t0
    call lu_wait_and_clear
6:  FRAME_LEAVE

# lu_send_block (lu_divide's callback: a0 = I or J, a1 = li or lj, a2 = 0
# for L_IK, 1 for U_KJ, a3 = the block): sends the block to the tiles of
# our grid row (L) or column (U) that own interior blocks in its block row
# (column). s0 = li or lj, s1 = kind, s2 = the block, s3 = the peer,
# s4 = the peers' count, s5 = 1 for U.
lu_send_block:
    FRAME_ENTER
    mv s0, a1
    mv s2, a3
    mv s5, a2
    lw s4, lu_w
    beqz a2, 1f
    lw s4, lu_h
1:  li s3, 0
2:  bgeu s3, s4, 5f
    lw t0, lu_x                 # not to ourselves
    beqz s5, 3f
    lw t0, lu_y
3:  beq s3, t0, 4f
    lw a0, lu_k
    mv a1, s3
    mv a2, s4
    call lu_has_after
    beqz a0, 4f
    slli t1, s0, 4
    or t1, t1, s3
    lw t2, lu_k
    bnez s5, 31f
    LU_ID a1, LU_KIND_L, t2, t1
    lw a0, lu_y                 # (s3, y)
    lw t0, lu_w
    mul a0, a0, t0
    add a0, a0, s3
    j 32f
31: LU_ID a1, LU_KIND_U, t2, t1
    lw t0, lu_w                 # (x, s3)
    mul a0, s3, t0
    lw t0, lu_x
    add a0, a0, t0
32: mv a2, s2
    call lu_send
4:  addi s3, s3, 1
    j 2b
5:  FRAME_LEAVE

# lu_send(a0 = dst, a1 = id, a2 = a block): SCMPSendNB of the block; with
# LU_SR_SENDS sends in flight, first waits for the oldest and clears it.
lu_send:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw a0, 24(sp)
    sw a1, 20(sp)
    sw a2, 16(sp)
    lw t0, lu_sends
    li t1, LU_SR_SENDS
    bltu t0, t1, 1f
    call lu_retire_send
1:  lw t0, lu_sends             # the ring's slot (first + count) mod size
    lw t1, lu_sends_first
    add t1, t1, t0
    andi t1, t1, LU_SR_SENDS - 1
    slli t1, t1, 2
    la t2, lu_send_ids
    add t1, t1, t2
    lw a1, 20(sp)
    sw a1, 0(t1)
    addi t0, t0, 1
    sw t0, lu_sends, t1
    lw a0, 24(sp)
    lw a2, 16(sp)
    li a3, 1
    li a4, LU_BLOCK_WORDS
    call SCMPSendNB
    lw ra, 28(sp)
    addi sp, sp, 32
    ret

# lu_retire_send(): waits for the oldest send in flight and clears it.
lu_retire_send:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    lw t1, lu_sends_first
    slli t2, t1, 2
    la t3, lu_send_ids
    add t2, t2, t3
    lw s0, 0(t2)
    addi t1, t1, 1
    andi t1, t1, LU_SR_SENDS - 1
    sw t1, lu_sends_first, t2
    lw t0, lu_sends
    addi t0, t0, -1
    sw t0, lu_sends, t1
    mv a0, s0
    call SCMPWaitSend
    mv a0, s0
    call SCMPClearSend
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

# lu_drain_sends(): waits for every send in flight and clears it.
lu_drain_sends:
    addi sp, sp, -16
    sw ra, 12(sp)
1:  lw t0, lu_sends
    beqz t0, 2f
    call lu_retire_send
    j 1b
2:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

# lu_for_needed callbacks (a0 = I or J, a1 = li or lj, a2 = 0 for L_IK,
# 1 for U_KJ): lu_post_sr posts its receive into its buffer, lu_wait_sr
# waits for it and clears it. lu_needed_id -> a0 = its id, a1 = its buffer.
lu_needed_id:
    slli t1, a1, 4
    lw t2, lu_k
    bnez a2, 1f
    lw t0, lu_x
    or t1, t1, t0
    LU_ID a0, LU_KIND_L, t2, t1
    lw t0, lu_lbuf
    j 2f
1:  lw t0, lu_y
    or t1, t1, t0
    LU_ID a0, LU_KIND_U, t2, t1
    lw t0, lu_ubuf
2:  li t3, LU_BLOCK_BYTES
    mul a1, a1, t3
    add a1, a1, t0
    ret

lu_post_sr:
    addi sp, sp, -16
    sw ra, 12(sp)
    call lu_needed_id
    li a2, 1
    call SCMPReceiveNB
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

lu_wait_sr:
    addi sp, sp, -16
    sw ra, 12(sp)
    call lu_needed_id
    call lu_wait_and_clear
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# lu_wait_and_clear(a0 = id): SCMPWaitReceive, then SCMPClearReceive
lu_wait_and_clear:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    call SCMPWaitReceive
    lw a0, 8(sp)
    call SCMPClearReceive
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# lu_gather's fetch: getBlock with id (4, J, I), then its wait.
lu_gather_block_sr:
    addi sp, sp, -16
    sw ra, 12(sp)
    LU_ID a6, LU_KIND_GATHER, a4, a3
    sw a6, 8(sp)
    mv a4, a2
    li a2, 1
    la a3, lu_blocks_ptr
    li a5, 1
    li a7, LU_BLOCK_WORDS
    call getBlock
    lw a0, 8(sp)
    call lu_wait_and_clear
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

lu_gather_sr:
    la a0, lu_gather_block_sr
    j lu_gather

    .section .rodata
    .if LU_READY
    .ifdef LU_LITERAL
lu_version: .asciz "send and receive, Ready mode, literal"
    .else
lu_version: .asciz "send and receive, Ready mode"
    .endif
    .else
    .ifdef LU_LITERAL
lu_version: .asciz "send and receive, Rendezvous mode, literal"
    .else
lu_version: .asciz "send and receive, Rendezvous mode"
    .endif
    .endif
lu_error_mesh: .asciz "the send-and-receive version needs a mesh at most 16 wide and 16 high"
lu_error_nb: .asciz "the send-and-receive version needs n / B (LU_N / LU_B) at most 256"

    .bss
    .p2align 2
lu_sends: .zero 4                       # sends in flight
lu_sends_first: .zero 4                 # the oldest's slot in lu_send_ids
lu_send_ids: .zero 4 * LU_SR_SENDS
# The heap starts here and must stay the last thing in memory: node 0's
# lu_matrix, then what lu_setup lays out.
    .p2align 3
    .globl lu_matrix
lu_matrix:
