# The race of thesis 3.4, shown happening (original NIU): tile 0 stores 32
# words into tile 1's `data` with one data message, then raises tile 1's
# `flag` with a second one. Messages are not delivered in order. Here tile
# 2 streams 64 words into tile 1 at the same time, so tile 1's NIU (a word
# every 4 cycles in this configuration) stores tile 0's data at half speed
# and it backs up in its VC; the flag message travels in another VC of the
# data set (3 per set here) and overtakes it. Tile 1 sees the flag and sums the words from the last
# one down: less than the 528 the whole block gives, as the last words are
# still on their way.
# run: mesh=3x1 boot=all set=niu.design=original set=network.num_vcs=3 set=niu.dma_cycles_per_word=4
    .text
    .globl _start
_start:
    la a2, block            # word i = i + 1: the sum of 32 is 528
    li t0, 1
    li t1, 65
1:  sw t0, 0(a2)
    addi a2, a2, 4
    addi t0, t0, 1
    blt t0, t1, 1b
    csrr s0, nodeid
    li t0, 1
    beq s0, t0, receiver
    li a0, 1
    li a2, 1                # destination stride (words)
    la a3, block
    bnez s0, other
    la a1, data
    sendh a0, data, a1, a2
    li a4, (1 << 16) | 32
    sendme a3, a4
    la a1, flag             # then the flag
    sendh a0, data, a1, a2
    li t2, 1
    sende t2
    endt
other:
    la a1, other_data       # tile 2: 64 words elsewhere on tile 1
    sendh a0, data, a1, a2
    li a4, (1 << 16) | 64
    sendme a3, a4
    endt
receiver:
    la t0, flag
1:  lw t1, 0(t0)
    beqz t1, 1b
    la a2, data + 124       # from the last word down
    li t3, 0
    li t4, 32
1:  lw t5, 0(a2)
    add t3, t3, t5
    addi a2, a2, -4
    addi t4, t4, -1
    bnez t4, 1b
    mv a0, t3
    li a7, 0x5c00           # print_int: the sum seen once the flag was up
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
    .data
block: .space 256
data: .space 128
other_data: .space 256
flag: .word 0
