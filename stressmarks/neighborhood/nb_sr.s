# nb_sr.s: the Neighborhood stressmark (GLCM sum and difference
# histograms, entropy and energy; stressmarks-spec.md section 2, thesis
# 6.2.1) with send and receive, for the modified NIU (Rendezvous mode):
#
#   scmp run stressmarks/neighborhood/nb_sr.s --mesh 4x4 --boot all --niu modified
#   (test size: --defsym NB_BITS=7 --defsym NB_DIM=64 --defsym NB_LINES=8
#    --defsym NB_TMIN=2 --defsym NB_TMAX=8 --defsym NB_DS=2 --defsym NB_DL=8)
#
# Parameters, input, counting, entropy and report are nb_common.s's, as in
# nb_am.s. What differs is the transport:
#
# - Partner rows stay request-driven: getBlock posts the receive, then a
#   thread on the owner sends the run of rows (SCMPSend).
# - Histograms use no requests. After counting a class, a node spawns a
#   local thread that sends every other node its bins of both histograms
#   (SCMPSendNB, node p+1 first, then p+2, ...), while the main thread takes
#   node q's portions from q-1, q-2, ... into one slot per other node, adds
#   each as it completes and then waits for its sender thread before it
#   clears the histograms. The spec's main thread posts all 2(P-1)
#   receives at once; the NIU's tables hold 32 entries (niu.
#   receive_table_entries, and the collectives need up to 13), so the
#   receives run in a window of NB_SR_WINDOW rounds: the first window is
#   posted before the previous class's reduction (nb_v_prepare), and the
#   receive of round j + NB_SR_WINDOW once round j is in. The sender keeps
#   as many rounds in flight. The round order on both sides (sender p's
#   round j goes to p+j, receiver q's round j comes from q-j) makes every
#   round's send meet a posted receive once the earlier rounds are done.
#
# Message ids (scmp_common.s's kinds; receives of a node, and sends of a
# node, in flight at once never share one):
#   rows:       kind 1, step = the run's first row, index = the requester;
#   sum bins:   kind 2, bits 27..24 = class, 23..12 = sender, 11..0 = receiver;
#   diff bins:  kind 3, the same fields.
#
# Results, on node 0: `nb_result` holds the 8 entropies and then the 8
# energies (f32), `nb_check` the debug checksums, `nb_cycles` the cycles
# from the barrier after generation until node 0 holds the results; node 0
# prints them (nb_report.s).

    .include "../lib/sr.s"
    .include "nb_common.s"

    .ifndef NB_SR_WINDOW
    .equ NB_SR_WINDOW, 8            # histogram rounds in flight per node
    .endif
# NB_SR_BLOCK_BARRIER 1 (default 0): a barrier of every node after each
# NB_SR_WINDOW rounds (a block), and a sender starts block k's rounds only
# once its node has passed the barrier after block k-1. The window bounds
# only each sender's own rounds in flight; on thousands of tiles senders
# drift some 48 rounds ahead of slow receivers, and their RTSs, arriving
# before the receives are posted, take entries of the receiver's table
# (RTS Received); past the free entries the next such RTS waits in its
# ejection buffer and the RTS the receiver waits for can be held behind it
# (docs/network.md, "Early RTSs": the 64x63 deadlock). With the barrier an
# RTS can only come for a round of the receiver's current block, whose
# receives the window posts, so its table needs no entry beyond the
# window's and the collectives'.
    .ifndef NB_SR_BLOCK_BARRIER
    .equ NB_SR_BLOCK_BARRIER, 0
    .endif
    .ifndef NB_SR_POST_EARLY        # 1: the first window of receives is
    .equ NB_SR_POST_EARLY, 1        # posted before the previous class's
    .endif                          # reduction; 0: after the spawn
# How a node sends another its two sections (its counts of the other's
# bins of the sum histogram and of the difference histogram; thesis 6.2.1:
# "each node takes responsibility for only a section of each of the
# combined histograms"), chosen when the program is assembled (a profile's
# [profile.programs], or --defsym):
# - 0 (the default): two messages, one per section (ids of kinds 2 and 3),
#   each a sendh and one sendme, into two receives;
# - 1: one message of several sendm parts (5.5: the NIU moves each part
#   "from memory directly into the network" when its pseudo-flits reach
#   the queue's head): sendh, sendm of the sum section, sendme of the
#   difference section, into one receive (kind 2) whose buffer holds both
#   sections back to back. A section is at most 2^15 words (2^16 bins
#   over at least 2 nodes), within one sendm's count.
    .ifndef SCMP_SECTIONS_IN_ONE_MESSAGE
    .equ SCMP_SECTIONS_IN_ONE_MESSAGE, 0
    .endif
# One distribution phase (NB_ONE_PHASE, nb_common.s): nb_v_exchange runs
# once, for class NB_PHASE, and a node's message to another holds its
# sections of all 16 histograms, class by class (sum, difference), as
# sendm parts (so one message whatever SCMP_SECTIONS_IN_ONE_MESSAGE says),
# into one receive whose buffer holds them back to back. Its receives are
# posted after the sender is spawned, as with NB_SR_POST_EARLY 0.
    .equ NB_SR_ONE_MESSAGE, SCMP_SECTIONS_IN_ONE_MESSAGE || NB_ONE_PHASE
    .equ NB_SR_POST_AT_EXCHANGE, NB_SR_POST_EARLY == 0 || NB_ONE_PHASE
    .equ NB_SR_KIND_ROW, 1
    .equ NB_SR_KIND_SUM, 2
    .equ NB_SR_KIND_DIFF, 3

    .text
    .globl _start
_start:
    j nb_main

# nb_sr_row_id(a0 = first row) -> a0: the id of our fetch of a run
nb_sr_row_id:
    slli a0, a0, SCMP_ID_STEP_SHIFT
    lw t0, nb_node
    or a0, a0, t0
    li t0, NB_SR_KIND_ROW << SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    ret

# nb_sr_hist_id(a0 = class, a1 = sender, a2 = receiver) -> a0 = the id of
# the sum portion, a1 = the difference portion's
nb_sr_hist_id:
    slli a0, a0, 24
    slli a1, a1, 12
    or a0, a0, a1
    or a0, a0, a2
    li t0, NB_SR_KIND_DIFF << SCMP_ID_KIND_SHIFT
    or a1, a0, t0
    li t0, NB_SR_KIND_SUM << SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    ret

# nb_v_fetch_run(a0 = owner, a1 = first row, a2 = rows, a3 = class):
# getBlock of the run (the rows and the spare words between them) into
# its place; the owner finds its image through nb_image_ptr.
nb_v_fetch_run:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    li a0, NB_DIM                   # the owner's first row
    lw a1, nb_tiles
    mv a2, s0
    call nb_split
    sub a0, s1, a0
    li t0, NB_ROW_BYTES
    mul s3, a0, t0                  # source offset
    mv a0, s1
    call nb_sr_row_id
    mv a6, a0
    mv a0, s1
    call nb_row_address
    mv a1, a0
    li t0, NB_ROW_WORDS
    mul a7, s2, t0
    addi a7, a7, -1
    mv a0, s0
    li a2, 1
    la a3, nb_image_ptr
    mv a4, s3
    li a5, 1
    call getBlock
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    addi sp, sp, 32
    ret

# nb_v_fetch_wait(a0 = first row, a1 = rows, a2 = class): waits for the
# run's receive and clears it.
nb_v_fetch_wait:
    addi sp, sp, -16
    sw ra, 12(sp)
    call nb_sr_row_id
    sw a0, 8(sp)
    call SCMPWaitReceive
    lw a0, 8(sp)
    call SCMPClearReceive
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# nb_sr_post_round(a0 = class, a1 = round j): posts the receives of node
# q-j's portions of our bins into slot j (sum, a word, difference).
nb_sr_post_round:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    mv s1, a1
    mv a0, a1
    call nb_slot
    mv s2, a0
    lw a2, nb_node                  # sender q - j (mod P)
    sub a1, a2, s1
    bgez a1, 1f
    lw t0, nb_tiles
    add a1, a1, t0
1:  mv a0, s0
    call nb_sr_hist_id
    sw a1, 0(sp)
    mv a1, s2
    li a2, 1
    call SCMPReceiveNB
    .if NB_SR_ONE_MESSAGE
    j 2f
    .endif
    lw a0, 0(sp)
    lw t0, nb_blen
    slli t0, t0, 2
    add a1, s2, t0
    addi a1, a1, 4
    li a2, 1
    call SCMPReceiveNB
2:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# nb_v_prepare(a0 = class): posts the first window of the class's
# histogram receives (rounds 1 .. min(NB_SR_WINDOW, P-1)); with
# NB_SR_POST_EARLY 0, nothing (nb_v_exchange posts them).
# nb_v_prepare_window(a0 = class) posts that window in either case (the
# same routine; its name sorts after nb_v_prepare, which traces show).
nb_v_prepare:
    .if NB_SR_POST_AT_EXCHANGE
    ret
    .endif
nb_v_prepare_window:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a0
    li s1, 1
1:  lw t0, nb_tiles
    bgeu s1, t0, 2f
    li t0, NB_SR_WINDOW
    bgtu s1, t0, 2f
    mv a0, s0
    mv a1, s1
    call nb_sr_post_round
    addi s1, s1, 1
    j 1b
2:  lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

# nb_sr_wait_sends(a0 = class, a1 = round j): waits for our two sends of
# round j (to node p+j) and clears them.
nb_sr_wait_sends:
    addi sp, sp, -16
    sw ra, 12(sp)
    lw t0, nb_node
    add a2, t0, a1
    lw t1, nb_tiles
    bltu a2, t1, 1f
    sub a2, a2, t1
1:  mv a1, t0
    call nb_sr_hist_id
    sw a1, 8(sp)
    sw a0, 4(sp)
    call SCMPWaitSend
    lw a0, 4(sp)
    call SCMPClearSend
    .if NB_SR_ONE_MESSAGE
    j 2f
    .endif
    lw a0, 8(sp)
    call SCMPWaitSend
    lw a0, 8(sp)
    call SCMPClearSend
2:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

# The local thread nb_v_exchange spawns (a0 = class): sends node p+j its
# bins of our sum and difference histograms in round j = 1 .. P-1, at most
# NB_SR_WINDOW rounds in flight, waits for the last ones, then raises
# nb_sr_sent (class + 1).
nb_sr_sender:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    mv s0, a0
    li s1, 1
1:  lw t0, nb_tiles                 # round s1 to node s2
    bgeu s1, t0, 3f
    lw s2, nb_node
    add s2, s2, s1
    bltu s2, t0, 2f
    sub s2, s2, t0
2:
    .if NB_SR_BLOCK_BARRIER
    addi t1, s1, -1                 # round j's block, (j-1)/W, must be
    li t0, NB_SR_WINDOW             # open: its node passed the barrier
    divu t1, t1, t0                 # after the block before
20: lw t0, nb_sr_blocks
    bgeu t0, t1, 22f
    yield
    j 20b
22:
    .endif
    li t0, NB_SR_WINDOW             # round j - W must be done first
    bleu s1, t0, 21f
    mv a0, s0
    sub a1, s1, t0
    call nb_sr_wait_sends
21: mv a0, s2
    call nb_bins_of
    slli s3, a0, 2                  # its first bin, bytes
    mv s4, a1                       # its bins
    mv a0, s0
    lw a1, nb_node
    mv a2, s2
    call nb_sr_hist_id
    sw a1, 4(sp)
    mv a1, a0
    mv a0, s2
    .if NB_ONE_PHASE
    SR_DATA_HEADER                  # one message: 16 sections
    li t2, 1 << 16                  # stride 1
    or t2, t2, s4
    lw t1, nb_hist                  # class 0's sum histogram
    add t1, t1, s3
    li t3, NB_CLASSES
6:  sendm t1, t2                    # the class's sum section
    li t0, 4 * NB_BINS
    add t4, t1, t0                  # its difference section
    addi t3, t3, -1
    beqz t3, 7f
    sendm t4, t2
    li t0, 4 * NB_HIST_WORDS
    add t1, t1, t0                  # the next class
    j 6b
7:  sendme t4, t2
    addi s1, s1, 1
    j 1b
    .elseif SCMP_SECTIONS_IN_ONE_MESSAGE
    SR_DATA_HEADER                  # one message: both sections
    lw t1, nb_sum
    add t1, t1, s3
    li t2, 1 << 16                  # stride 1
    or t2, t2, s4
    sendm t1, t2
    lw t1, nb_diff
    add t1, t1, s3
    sendme t1, t2
    addi s1, s1, 1
    j 1b
    .endif
    lw a2, nb_sum
    add a2, a2, s3
    li a3, 1
    mv a4, s4
    call SCMPSendNB
    mv a0, s2
    lw a1, 4(sp)
    lw a2, nb_diff
    add a2, a2, s3
    li a3, 1
    mv a4, s4
    call SCMPSendNB
    addi s1, s1, 1
    j 1b
3:  lw t0, nb_tiles                 # the last rounds: max(1, P-W) .. P-1
    li t1, NB_SR_WINDOW
    sub s1, t0, t1
    li t1, 1
    bge s1, t1, 4f
    li s1, 1
4:  lw t0, nb_tiles
    bgeu s1, t0, 5f
    mv a0, s0
    mv a1, s1
    call nb_sr_wait_sends
    addi s1, s1, 1
    j 4b
5:  addi t0, s0, 1
    sw t0, nb_sr_sent, t1
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    addi sp, sp, 32
    ret

# nb_v_exchange(a0 = class): spawns the sender thread, then takes the
# portions of our bins from q-1, q-2, ... in turn (waits, clears, adds,
# posts the receive NB_SR_WINDOW rounds on), then waits for the sender
# thread: afterwards our bins hold every node's counts and our histograms
# may be cleared.
nb_v_exchange:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    lw t0, nb_tiles
    li t1, 1
    beq t0, t1, 9f
    .if NB_SR_BLOCK_BARRIER
    sw zero, nb_sr_blocks, t0       # block 0 open
    .endif
    lw a0, nb_node
    la a1, nb_sr_sender
    li a2, 0
    mv a3, s0
    call createThread
    .if NB_SR_POST_AT_EXCHANGE
    mv a0, s0                       # our receives, meanwhile
    call nb_v_prepare_window
    .endif
    li s1, 1
1:  lw t0, nb_tiles
    bgeu s1, t0, 5f
    lw a2, nb_node                  # round s1: from node q - j
    sub a1, a2, s1
    bgez a1, 2f
    add a1, a1, t0
2:  mv a0, s0
    call nb_sr_hist_id
    mv s2, a1
    sw a0, 0(sp)
    call SCMPWaitReceive
    lw a0, 0(sp)
    call SCMPClearReceive
    .if NB_ONE_PHASE
    mv a0, s1
    call nb_slot
    call nb_sr_accumulate_phase
    .elseif SCMP_SECTIONS_IN_ONE_MESSAGE
    mv a0, s1
    call nb_slot
    call nb_sr_accumulate_sections
    .else
    mv a0, s2
    call SCMPWaitReceive
    mv a0, s2
    call SCMPClearReceive
    mv a0, s1
    call nb_slot
    call nb_accumulate_slot
    .endif
    addi a1, s1, NB_SR_WINDOW
    lw t0, nb_tiles
    bgeu a1, t0, 3f
    mv a0, s0
    call nb_sr_post_round
3:
    .if NB_SR_BLOCK_BARRIER
    li t0, NB_SR_WINDOW             # the end of a block (not the last):
    remu t1, s1, t0                 # every node's receives of it are in
    bnez t1, 4f
    addi t1, s1, 1
    lw t0, nb_tiles
    bgeu t1, t0, 4f
    call SCMPBarrier
    lw t0, nb_sr_blocks             # our sender may start the next block
    addi t0, t0, 1
    sw t0, nb_sr_blocks, t1
4:
    .endif
    addi s1, s1, 1
    j 1b
5:  addi s1, s0, 1                  # our sends are done
6:  lw t0, nb_sr_sent
    beq t0, s1, 9f
    yield
    j 6b
9:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# nb_sr_accumulate_sections(a0 = slot): adds the slot's two sections, sent
# as one message (SCMP_SECTIONS_IN_ONE_MESSAGE), back to back, blen words
# each, to our bins of the sum and the difference histograms.
nb_sr_accumulate_sections:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv a1, a0
    lw t0, nb_blen
    slli t0, t0, 2
    add s0, a0, t0                  # the difference section
    lw a0, nb_b0
    slli a0, a0, 2
    lw t0, nb_sum
    add a0, a0, t0
    lw a2, nb_blen
    call nb_add_words
    mv a1, s0
    lw a0, nb_b0
    slli a0, a0, 2
    lw t0, nb_diff
    add a0, a0, t0
    lw a2, nb_blen
    call nb_add_words
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

    .if NB_ONE_PHASE
# nb_sr_accumulate_phase(a0 = slot): adds the slot's 16 sections (one
# distribution phase: class c's two at 2 c blen words) to our bins of
# every class's histograms; leaves class 7 selected.
nb_sr_accumulate_phase:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a0
    li s1, 0
1:  mv a0, s1
    call nb_select_class
    mv a0, s0
    call nb_sr_accumulate_sections
    lw t0, nb_blen
    slli t0, t0, 3
    add s0, s0, t0                  # the next class's sections
    addi s1, s1, 1
    li t0, NB_CLASSES
    bltu s1, t0, 1b
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret
    .endif

    .section .rodata
    .globl nb_version
nb_version: .asciz "send and receive"

    .bss
    .p2align 2
nb_sr_sent: .zero 4         # class + 1 once the sender thread is done
nb_sr_blocks: .zero 4       # NB_SR_BLOCK_BARRIER: blocks' barriers passed
# The heap starts here and must stay the last thing in memory.
    .p2align 3
nb_heap:
