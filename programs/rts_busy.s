# A second RTS for a busy id (modified NIU, thesis 5.6.1): tiles 1 and 2
# both send message id 5 to tile 0 in Rendezvous mode. Tile 0 takes one
# transfer at a time: the first RTS records itself (RTS Received), the other
# finds the entry busy and waits in the network, in the RTS VCs, until tile
# 0 has received the first transfer and removed its entry; then it gets its
# CTS in turn. Tile 0 prints the two values in the order they came.
# run: mesh=3x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    li s1, 5                # the message id everybody uses
    beqz s0, receiver
    li a0, 0
    sendh a0, rdv, s1
    slli t0, s0, 8          # the value: node * 256
    sende t0
    waits s1
    rms s1
    endt
receiver:
    la a2, slot
    li a3, 1
    li s2, 2                # two transfers, one after the other
1:  str s1, a2, a3
    waitr s1
    rmr s1
    lw a0, 0(a2)
    li a7, 0x5c00           # print_int
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    addi s2, s2, -1
    bnez s2, 1b
    endt
    .data
slot: .word 0
