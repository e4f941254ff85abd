# Every tile computes, then passes a word to its right neighbour on a ring
# and takes one from its left (modified NIU, Rendezvous), ROUNDS times;
# WORK loop iterations (5 instructions each) of computing between
# exchanges. With MESSAGES=0 the same program only computes: the
# compute-only reference of the messaging benchmark.
    .ifndef ROUNDS
    .equ ROUNDS, 200
    .endif
    .ifndef WORK
    .equ WORK, 600
    .endif
    .ifndef MESSAGES
    .equ MESSAGES, 1
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    csrr s1, ntiles
    addi s2, s0, 1          # right neighbour
    bne s2, s1, 1f
    li s2, 0
1:  li s3, 0                # round
    la s4, slot
    li s5, 1
    li s6, 0                # accumulator
round:
    li t0, WORK
2:  addi s6, s6, 3          # the work: 5 instructions an iteration
    xor t1, s6, t0
    sw t1, -4(sp)
    addi t0, t0, -1
    bnez t0, 2b
    li t0, MESSAGES
    beqz t0, 3f
    str s3, s4, s5          # post the receive of this round's word
    sendh s2, rdv, s3
    sende s6
    waits s3
    rms s3
    waitr s3
    rmr s3
    lw t2, 0(s4)
    add s6, s6, t2
3:  addi s3, s3, 1
    li t0, ROUNDS
    blt s3, t0, round
    endt
    .data
slot: .word 0
