# nb_am.s: the Neighborhood stressmark (GLCM sum and difference
# histograms, entropy and energy; stressmarks-spec.md section 2, thesis
# 6.2.1) with active messages, for the original NIU:
#
#   scmp run stressmarks/neighborhood/nb_am.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym NB_BITS=7 --defsym NB_DIM=64 --defsym NB_LINES=8
#    --defsym NB_TMIN=2 --defsym NB_TMAX=8 --defsym NB_DS=2 --defsym NB_DL=8)
#
# Parameters (.equ, --defsym): NB_SEED (-1), NB_BITS pixel width (11),
# NB_DIM image side (1536), NB_LINES (256), NB_TMIN and NB_TMAX line
# thickness (8, 64), NB_DS and NB_DL pair distances (4, 16).
#
# Every tile draws the whole random image and keeps rows split(dim, P, p).
# For each of the 8 pair classes it counts the pairs whose first pixel is
# in its rows into its own full-size sum and difference histograms. The
# partner rows below its own come from their owners once, when a class
# first needs them: a thread created on the owner sends a run of rows. Then
# node q owns bins split(bins, P, q) of both histograms: it creates a
# request thread on every other node, which hands the request to that
# node's main thread; the main thread, once it has counted the class,
# answers each request with the two portions (sum, difference); node q
# adds them to its own and computes its share of H, Es and Ed, and three
# all-reduces give the totals. (The two portions go as two data messages,
# or as one with SCMP_SECTIONS_IN_ONE_MESSAGE: nb_am_sections.s.) A node clears its histograms only after it
# has answered its P-1 requests.
#
# Each data message ends with a marker word (the class + 1) behind the
# data, in the same message: the original NIU stores a message's words in
# order, so once the marker shows, the data is there. (The thesis's
# protocol, data and then a flag in a second message, can let the flag
# overtake the data: docs/libraries.md, "the flag race".) A row run's
# marker lands in the spare word of its last local row.
#
# Results, on node 0: `nb_result` holds the 8 entropies and then the 8
# energies (f32, classes (ds,0) (ds,ds) (0,ds) (-ds,ds), then the same at
# dl), `nb_check` the debug checksums, `nb_cycles` the cycles from the
# barrier after generation until node 0 holds the results; node 0 prints
# them.

    .include "../lib/am.s"
    .include "nb_common.s"
    .if NB_ONE_PHASE
    .error "nb_am.s has no one-phase exchange (NB_ONE_PHASE): nb_am_lit.s and nb_sr.s have"
    .endif

    .text
    .globl _start
_start:
    j nb_main
    .include "nb_am_sections.s"

# nb_am_send_marked(a0 = node, a1 = dst_addr, a2 = src_addr, a3 = count
# >= 1, a4 = marker): one data message of count words from src_addr to
# dst_addr on node, then the marker word after them. The NIU copies each
# sendm block into its queue before it takes another messaging
# instruction, so the marker (sende) issues once the words are read.
nb_am_send_marked:
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

# The thread a row request starts on the rows' owner (via createThread):
# a0 = requesting node, a1 = dst_addr there, a2 = the rows' offset in our
# image (bytes), a3 = words (the rows and their spare words, but the last
# spare word), a4 = marker.
nb_am_row_server:
    lw t0, nb_image
    add a2, a2, t0
    tail nb_am_send_marked

# nb_v_fetch_run(a0 = owner, a1 = first row, a2 = rows, a3 = class):
# requests the rows from their owner (a thread there sends them here,
# marker class + 1).
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
    addi a7, s3, 1
    lw a3, nb_node
    mv a0, s0
    la a1, nb_am_row_server
    li a2, 0
    call createThread
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    addi sp, sp, 32
    ret

# nb_v_fetch_wait(a0 = first row, a1 = rows, a2 = class): polls the last
# row's spare word for the marker.
nb_v_fetch_wait:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a2, 8(sp)
    add a0, a0, a1
    call nb_row_address             # the row after the run,
    addi a0, a0, -4                 # minus a word: the last spare word
    lw t1, 8(sp)
    addi t1, t1, 1
1:  lw t0, 0(a0)
    beq t0, t1, 2f
    yield
    j 1b
2:  lw ra, 12(sp)
    addi sp, sp, 16
    ret

nb_v_prepare:
    ret

# The thread a histogram request starts (via createThread): a0 = the
# requesting node, a1 = its slot for our counts. It queues the request for
# the main thread (a slot taken with amoadd; the entry is published by its
# first word, requester + 1, written last) and ends.
nb_am_request:
    li t0, 1
    la t1, nb_am_tail
    amoadd.w t2, t0, (t1)
    slli t2, t2, 3
    lw t1, nb_records
    add t1, t1, t2
    sw a1, 4(t1)
    addi a0, a0, 1
    sw a0, 0(t1)
    ret

# nb_am_serve(a0 = requesting node, a1 = its slot, a2 = marker): its bins
# of our sum histogram, then of our difference histogram, each as a marked
# message into the slot (sum, marker, difference, marker).
nb_am_serve:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    call nb_bins_of
    slli s3, a0, 2                  # its first bin, in bytes
    mv s4, a1                       # its bin count
    .if SCMP_SECTIONS_IN_ONE_MESSAGE
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
    call nb_am_send_marked
    mv a0, s0
    slli a1, s4, 2
    add a1, a1, s1
    addi a1, a1, 4
    lw a2, nb_diff
    add a2, a2, s3
    mv a3, s4
    mv a4, s2
    call nb_am_send_marked
    .endif
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    addi sp, sp, 32
    ret

# nb_v_exchange(a0 = class): requests our bins from every other node
# (nodes q+1, q+2, ... in turn), then until every answer is in and every
# request to us is answered: answers the requests queued so far, and adds
# the answers that came, in order (node q-1 first).
# s0 = class, s1 = marker, s2 = node, s3 = P, s4 = requests answered,
# s5 = next answer to add (round j: node q - j), s6 = j / loop index.
nb_v_exchange:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    sw s5, 4(sp)
    sw s6, 0(sp)
    mv s0, a0
    addi s1, a0, 1
    lw s2, nb_node
    lw s3, nb_tiles
    li t0, 1
    beq s3, t0, 9f
    li s6, 1
1:  sub a0, s3, s6                  # node q + j's answer: our slot P - j
    call nb_slot
    mv a4, a0
    add a0, s2, s6
    bltu a0, s3, 3f
    sub a0, a0, s3
3:  la a1, nb_am_request
    li a2, 0
    mv a3, s2
    call createThread
    addi s6, s6, 1
    bltu s6, s3, 1b
    li s4, 0
    li s5, 1
4:  addi t0, s3, -1                 # answer what is queued
    bgeu s4, t0, 5f
    slli t1, s4, 3
    lw t2, nb_records
    add t1, t1, t2
    lw a0, 0(t1)
    beqz a0, 5f
    lw a1, 4(t1)
    sw zero, 0(t1)
    addi a0, a0, -1
    mv a2, s1
    call nb_am_serve
    addi s4, s4, 1
    j 4b
5:  bgeu s5, s3, 6f                 # add the answers that came, in order
    mv a0, s5
    call nb_slot
    lw t0, nb_blen
    slli t0, t0, 2
    add t1, a0, t0
    lw t2, 0(t1)                    # the sum's marker
    bne t2, s1, 6f
    add t1, t1, t0
    lw t2, 4(t1)                    # the difference's marker
    bne t2, s1, 6f
    call nb_accumulate_slot
    addi s5, s5, 1
    j 4b
6:  addi t0, s3, -1
    bltu s4, t0, 7f
    bgeu s5, s3, 8f
7:  yield
    j 4b
8:  sw zero, nb_am_tail, t0         # the next class's requests start at 0
9:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    lw s5, 4(sp)
    lw s6, 0(sp)
    addi sp, sp, 32
    ret

    .section .rodata
    .globl nb_version
nb_version: .asciz "active messages"

    .bss
    .p2align 2
nb_am_tail: .zero 4         # requests queued in this class
# The heap starts here and must stay the last thing in memory.
    .p2align 3
nb_heap:
