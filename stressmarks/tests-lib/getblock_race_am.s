# getblock_race_am.s: the flag race of thesis 3.4 through the active-messages
# library (am.s, original NIU), counted. Every node of the 4x4 mesh fetches
# WORDS words from node 0 and WORDS from its next neighbour at once with
# getBlock (flags), 4 rounds; as soon as a flag is up it checks the words
# from the last one down and counts those that have not arrived yet. The
# flag message can overtake its data message in the network (another
# virtual channel of the data set), so the count need not be 0; node 0
# prints the total (a figure, not a check: docs/libraries.md quotes it).
# It runs with programs/flag_race.s's configuration (3 VCs per set, a DMA
# word every 4 cycles), where the race is frequent; with the default one
# this program sees none (an 8x8 variant of it saw 1 word in 2560 getBlocks).
# run: mesh=4x4 boot=all niu=original set=network.num_vcs=3 set=niu.dma_cycles_per_word=4 trace-cycles=0..1

    .equ WORDS, 64
    .equ ROUNDS, 4

    .include "check.s"
    .text
    .globl _start
_start:
    TEST_PROLOGUE
    la t0, data                 # data[i] = 1000p + i
    la t1, data_ptr
    sw t0, 0(t1)
    mv a0, t0
    la a1, unused
    li a2, WORDS
    call fill_sources
    call SCMPBarrier
    li s5, 0                    # words seen stale
    li s6, ROUNDS
1:  la a0, got1                 # clear what will arrive
    li a1, 2 * WORDS
    call clear_words
    li a0, 0
    la a1, got1
    la a2, flag1
    call request
    mv a0, s2
    la a1, got2
    la a2, flag2
    call request
    la a0, flag1
    call amWaitFlag
    li a0, 0
    la a1, got1
    call count_stale
    la a0, flag2
    call amWaitFlag
    mv a0, s2
    la a1, got2
    call count_stale
    call SCMPBarrier
    addi s6, s6, -1
    bnez s6, 1b
    mv a0, s5
    call SCMPReduceSumInt
    bnez s0, 2f
    mv a1, a0
    la a0, stale_text
    call print_labeled
2:  endt

# request(a0 = owner, a1 = destination, a2 = flag): getBlock of WORDS words
request:
    mv a7, a2
    li a2, 1
    la a3, data_ptr
    li a4, 0
    li a5, 1
    li a6, WORDS
    tail getBlock

# clear_words(a0 = words, a1 = count): every word -1
clear_words:
    li t0, -1
1:  sw t0, 0(a0)
    addi a0, a0, 4
    addi a1, a1, -1
    bnez a1, 1b
    ret

# count_stale(a0 = owner, a1 = words): s5 += the words, from the last one
# down, that are not 1000 owner + i yet
count_stale:
    li t0, 1000
    mul t0, t0, a0
    li t1, WORDS - 1
    slli t2, t1, 2
    add a1, a1, t2
1:  lw t2, 0(a1)
    add t3, t0, t1
    beq t2, t3, 2f
    addi s5, s5, 1
2:  addi a1, a1, -4
    addi t1, t1, -1
    bgez t1, 1b
    ret

    .section .rodata
stale_text: .asciz "words seen stale after their flag, in 128 getBlocks of 64 words:"
    .data
    .p2align 2
data_ptr: .word 0
flag1: .word 0
flag2: .word 0
    .bss
data: .zero 4 * WORDS
unused: .zero 4 * WORDS
got1: .zero 4 * WORDS
got2: .zero 4 * WORDS
    .text
    .include "../lib/am.s"
