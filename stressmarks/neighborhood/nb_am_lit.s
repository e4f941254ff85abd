# nb_am_lit.s: the Neighborhood stressmark with active messages as the
# thesis describes it (the sweep's neighborhood-*-literal rows), for the
# original NIU:
#
#   scmp run stressmarks/neighborhood/nb_am_lit.s --mesh 4x4 --boot all --niu original
#   (test size: as nb_am.s)
#
# Parameters, input, counting, entropy and report are nb_common.s's, as in
# nb_am.s; what differs from nb_am.s, each choice with the thesis's words:
#
# - Every request is a thread on the data's owner that "will send the data
#   to the requesting node and terminate" (1.2.3), and every transfer is
#   "a second data message" after the data that raises a flag on the
#   requester (3.3, 3.4): the partner rows (6.2.1: "it will request the row
#   from its owner by initiating a thread on that node") and the histogram
#   portions (6.2.1: "nodes request rows and histogram portions from other
#   nodes by creating threads on those nodes").
# - A barrier after counting, before any histogram request: "once all of
#   the nodes complete the calculations for their rows, the histograms on
#   each node must be combined" (6.2.1). It is what lets a handler send at
#   once (the owner has counted); without it a handler would have to wait
#   for its node's counting (the spec's letter), which deadlocks
#   (docs/stressmarks.md).
# - The flag race (3.4: "it is possible for the synchronization message to
#   arrive at node A before the data message it signals"): each data
#   message carries one more word after the data, a stamp (the class + 1);
#   after the flag the requester also waits for the stamps, so a race costs
#   a wait instead of wrong counts. Races are counted and printed
#   (`flag_races`).
# - Node q requests from q+1, q+2, ... and adds the answers from q-1, q-2,
#   ... (nb_am.s's order); a node clears its histograms once the P-1
#   handlers that read them have sent their flags.
# Row runs (consecutive partner rows of one owner, NB_FETCH_BATCH in
# flight) are nb_common.s's, as in both other versions.
# The two sections of an answer go as two data messages, or as one with
# SCMP_SECTIONS_IN_ONE_MESSAGE (nb_am_sections.s, as nb_sr.s does). With
# NB_ONE_PHASE (nb_common.s) nb_v_exchange runs once for every class: one
# barrier, one request per node pair, answered by one data message of
# the 16 sections with their stamps (nb_am_send_phase).
#
# Results, on node 0: as nb_am.s, and `flag_races` (summed over the nodes).

    .equ NB_V_FINISH, 1             # nb_common.s calls nb_v_finish

    .include "../lib/am.s"
    .include "nb_common.s"

    .text
    .globl _start
_start:
    j nb_main
    .include "nb_am_sections.s"

# nb_lit_send_stamped(a0 = node, a1 = dst_addr, a2 = src_addr, a3 = count
# >= 1, a4 = stamp): one data message of count words from src_addr to
# dst_addr on node, then the stamp word after them; then the flag message
# is the caller's.
nb_lit_send_stamped:
    li t0, 1
    sendh a0, data, a1, t0
    li t1, AM_SENDM_MAX_WORDS
    li t2, 1 << 16                  # source stride 1
1:  bleu a3, t1, 2f
    or t0, t2, t1
    sendm a2, t0
    sub a3, a3, t1
    li t0, 4 * AM_SENDM_MAX_WORDS
    add a2, a2, t0
    j 1b
2:  or t0, t2, a3
    sendm a2, t0
    sende a4
    ret

# nb_lit_wait_stamp(a0 = address, a1 = stamp): after a flag, waits for the
# stamp its data message carries (counting a race when it is not there yet).
nb_lit_wait_stamp:
    lw t0, 0(a0)
    beq t0, a1, 2f
    la t1, nb_lit_races
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
1:  yield
    lw t0, 0(a0)
    bne t0, a1, 1b
2:  ret

# The thread a row request starts on the rows' owner (createThread):
# a0 = requesting node, a1 = dst_addr there, a2 = the rows' offset in our
# image (bytes), a3 = words (the rows and their spare words, but the last
# spare word), a4 = stamp (class + 1) | flag index << 8. It sends the rows
# and the stamp, then the flag, and ends.
nb_lit_row_server:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a0
    srli s1, a4, 8                  # the flag index
    andi a4, a4, 0xff
    lw t0, nb_image
    add a2, a2, t0
    call nb_lit_send_stamped
    mv a0, s0
    la a1, nb_lit_row_flags
    slli t0, s1, 2
    add a1, a1, t0
    li a2, 1
    call sendDataIntValue
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

# nb_v_fetch_run(a0 = owner, a1 = first row, a2 = rows, a3 = class):
# clears the run's flag and requests the rows from their owner. The runs of
# a batch take flags 0, 1, ... in turn (nb_v_fetch_wait takes them in the
# same order).
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
    mv s3, a3
    li a0, NB_DIM                   # the owner's first row
    lw a1, nb_tiles
    mv a2, s0
    call nb_split
    sub a0, s1, a0
    li t0, NB_ROW_BYTES
    mul a5, a0, t0                  # source offset
    mv a0, s1
    call nb_row_address
    mv a4, a0                       # destination
    li t0, NB_ROW_WORDS
    mul a6, s2, t0
    addi a6, a6, -1
    lw t0, nb_lit_fetch_next        # the flag of this run
    addi t1, t0, 1
    li t2, NB_FETCH_BATCH
    bltu t1, t2, 1f
    li t1, 0
1:  sw t1, nb_lit_fetch_next, t2
    la t1, nb_lit_row_flags
    slli t2, t0, 2
    add t1, t1, t2
    sw zero, 0(t1)
    slli a7, t0, 8
    addi t0, s3, 1
    or a7, a7, t0
    lw a3, nb_node
    mv a0, s0
    la a1, nb_lit_row_server
    li a2, 0
    call createThread
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    addi sp, sp, 32
    ret

# nb_v_fetch_wait(a0 = first row, a1 = rows, a2 = class): waits for the
# run's flag, then its stamp in the last row's spare word.
nb_v_fetch_wait:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    addi s1, a2, 1
    add a0, a0, a1
    call nb_row_address             # the row after the run,
    addi s0, a0, -4                 # minus a word: the last spare word
    lw t0, nb_lit_wait_next
    addi t1, t0, 1
    li t2, NB_FETCH_BATCH
    bltu t1, t2, 1f
    li t1, 0
1:  sw t1, nb_lit_wait_next, t2
    la a0, nb_lit_row_flags
    slli t0, t0, 2
    add a0, a0, t0
    call amWaitFlag
    mv a0, s0
    mv a1, s1
    call nb_lit_wait_stamp
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

nb_v_prepare:
    ret

# The thread a histogram request starts on node p (createThread): a0 = the
# requesting node q, a1 = its slot for our counts of its bins, a2 = its
# flag for them, a3 = the stamp (class + 1). Our counting of the class is
# done (the barrier): it sends q's bins of our sum histogram, then of our
# difference histogram, each with the stamp (sum, stamp, difference,
# stamp in the slot), then the flag, counts itself served, and ends.
nb_lit_serve:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    sw s5, 4(sp)
    mv s0, a0
    mv s1, a1
    mv s5, a2
    mv s2, a3
    call nb_bins_of
    slli s3, a0, 2                  # q's first bin, in bytes
    mv s4, a1                       # q's bin count
    .if NB_ONE_PHASE
    mv a0, s0
    mv a1, s1
    mv a2, s2
    mv a3, s3
    mv a4, s4
    call nb_am_send_phase
    .elseif SCMP_SECTIONS_IN_ONE_MESSAGE
    mv a0, s0
    mv a1, s1
    mv a2, s2
    mv a3, s3
    mv a4, s4
    call nb_am_send_sections
    .else
    mv a0, s0
    mv a1, s1
    lw a2, nb_sum
    add a2, a2, s3
    mv a3, s4
    mv a4, s2
    call nb_lit_send_stamped
    mv a0, s0
    slli a1, s4, 2
    add a1, a1, s1
    addi a1, a1, 4
    lw a2, nb_diff
    add a2, a2, s3
    mv a3, s4
    mv a4, s2
    call nb_lit_send_stamped
    .endif
    mv a0, s0                       # the flag: the NIU took this
    mv a1, s5                       # instruction once both copies were
    li a2, 1                        # done, so our histograms are read
    call sendDataIntValue
    li t0, 1
    la t1, nb_lit_served
    amoadd.w zero, t0, (t1)
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    lw s5, 4(sp)
    addi sp, sp, 32
    ret

# nb_v_exchange(a0 = class): the barrier, then a request on every other
# node (q+1, q+2, ...), then the answers from q-1, q-2, ... in turn (flag,
# stamps, add), then until the P-1 requests to us are served.
# s0 = class, s1 = stamp, s2 = node, s3 = P, s4 = round j.
nb_v_exchange:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    mv s0, a0
    addi s1, a0, 1
    lw s2, nb_node
    lw s3, nb_tiles
    li t0, 1
    beq s3, t0, 9f
    call SCMPBarrier                # every node has counted the class
    li s4, 1
1:  la t0, nb_lit_flags             # flag of round j: node q - j's answer
    slli t1, s4, 2
    add t0, t0, t1
    sw zero, 0(t0)
    addi s4, s4, 1
    bltu s4, s3, 1b
    li s4, 1
2:  sub a0, s3, s4                  # node q + j's answer: slot and flag P - j
    call nb_slot
    mv a4, a0
    sub t0, s3, s4
    la a5, nb_lit_flags
    slli t0, t0, 2
    add a5, a5, t0
    mv a6, s1
    add a0, s2, s4
    bltu a0, s3, 3f
    sub a0, a0, s3
3:  la a1, nb_lit_serve
    li a2, 0
    mv a3, s2
    call createThread
    addi s4, s4, 1
    bltu s4, s3, 2b
    li s4, 1
4:  la a0, nb_lit_flags             # round j: node q - j's answer
    slli t0, s4, 2
    add a0, a0, t0
    call amWaitFlag
    .if NB_ONE_PHASE
    mv a0, s4
    mv a1, s1
    call nb_lit_take_phase
    .else
    mv a0, s4
    call nb_slot
    lw t0, nb_blen
    slli t0, t0, 2
    add a0, a0, t0                  # the sum's stamp
    mv a1, s1
    call nb_lit_wait_stamp
    mv a0, s4
    call nb_slot
    lw t0, nb_blen
    slli t0, t0, 3
    add a0, a0, t0
    addi a0, a0, 4                  # the difference's stamp
    mv a1, s1
    call nb_lit_wait_stamp
    mv a0, s4
    call nb_slot
    call nb_accumulate_slot
    .endif
    addi s4, s4, 1
    bltu s4, s3, 4b
    addi s4, s3, -1                 # our P-1 handlers have read our
5:  lw t0, nb_lit_served            # histograms
    beq t0, s4, 6f
    yield
    j 5b
6:  sw zero, nb_lit_served, t0
9:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    addi sp, sp, 32
    ret

    .if NB_ONE_PHASE
# nb_lit_take_phase(a0 = round j, a1 = stamp): after the flag of node q-j's
# answer (NB_ONE_PHASE: every class's sections in slot j, class c's
# sum, marker, difference, marker at c (2 blen + 2) words), waits for each
# class's two stamps and adds its sections to our bins of that class's
# histograms; leaves class 7 selected.
nb_lit_take_phase:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    sw s2, 0(sp)
    mv s2, a1
    call nb_slot
    mv s0, a0                       # the class's slot
    li s1, 0
1:  lw t0, nb_blen
    slli t0, t0, 2
    add a0, s0, t0                  # the sum's stamp
    mv a1, s2
    call nb_lit_wait_stamp
    lw t0, nb_blen
    slli t0, t0, 3
    add a0, s0, t0
    addi a0, a0, 4                  # the difference's stamp
    mv a1, s2
    call nb_lit_wait_stamp
    mv a0, s1
    call nb_select_class
    mv a0, s0
    call nb_accumulate_slot
    lw t0, nb_blen
    slli t0, t0, 3
    addi t0, t0, 8
    add s0, s0, t0                  # the next class's slot
    addi s1, s1, 1
    li t0, NB_CLASSES
    bltu s1, t0, 1b
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    lw s2, 0(sp)
    addi sp, sp, 16
    ret
    .endif

# nb_v_finish(): after the timed region, node 0 prints the flag races of
# all nodes.
nb_v_finish:
    addi sp, sp, -16
    sw ra, 12(sp)
    lw a0, nb_lit_races
    call SCMPReduceSumInt
    lw t0, nb_node
    bnez t0, 1f
    mv t1, a0
    la a0, nb_lit_races_text
    li a7, NB_PRINT_STRING
    ecall
    mv a0, t1
    li a7, NB_PRINT_INT
    ecall
    li a0, '\n'
    li a7, NB_PRINT_CHAR
    ecall
1:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

    .section .rodata
    .globl nb_version
nb_version: .asciz "active messages, literal"
nb_lit_races_text: .asciz "flag_races "

    .bss
    .p2align 2
nb_lit_served: .zero 4          # histogram requests to us served this class
nb_lit_races: .zero 4           # flags seen before their data
nb_lit_fetch_next: .zero 4      # the next row run's flag index
nb_lit_wait_next: .zero 4
nb_lit_row_flags: .zero 4 * NB_FETCH_BATCH
nb_lit_flags: .zero 4 * 1024    # by round j (1 .. P-1): node q-j's answer
# The heap starts here and must stay the last thing in memory.
    .p2align 3
nb_heap:
