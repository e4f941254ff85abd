# A `sendm` bandwidth stream (modified NIU, Rendezvous): tile 0 sends 128
# words to tile 3 (three hops) as one message; tile 3 receives it with
# `str`/`waitr`. Both print their cycles: the sender from `sendh` to its
# entry going Complete (the last word has left), the receiver from `str` to
# Complete (the last word is stored), and the sum of the words.
# run: mesh=4x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, sender
    li t0, 3
    beq s0, t0, receiver
    endt
sender:
    la a2, buffer           # fill the buffer: word i = i
    li t0, 0
    li t1, 128
1:  sw t0, 0(a2)
    addi a2, a2, 4
    addi t0, t0, 1
    blt t0, t1, 1b
    li a0, 3
    li s1, 7                # message id
    csrr s2, cycle
    sendh a0, rdv, s1
    la a2, buffer
    li a3, (1 << 16) | 128
    sendme a2, a3
    waits s1
    csrr s3, cycle
    rms s1
    sub a0, s3, s2
    li a7, 0x5c00           # print_int
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
receiver:
    li s1, 7
    la a2, buffer
    li a3, 1
    csrr s2, cycle
    str s1, a2, a3
    waitr s1
    csrr s3, cycle
    rmr s1
    sub a0, s3, s2
    li a7, 0x5c00
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    li t3, 0                # sum of the words: 128 * 127 / 2 = 8128
    li t4, 128
1:  lw t5, 0(a2)
    add t3, t3, t5
    addi a2, a2, 4
    addi t4, t4, -1
    bnez t4, 1b
    mv a0, t3
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
    .data
buffer: .space 512
