# A transmission queue that fills (modified NIU): tile 0 sends a Rendezvous
# message of 40 words with `send2` to tile 1, which posts its receive late.
# Until the CTS comes, the 16-flit queue of tile 0's context holds the head,
# the tag and the first 14 words, and the next `send2` suspends the context
# (queue_full in the statistics); the CTS lets the queue drain and the
# context go on.
# run: mesh=2x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    li s1, 9
    bnez s0, receiver
    li a0, 1
    sendh a0, rdv, s1
    li t0, 20               # 20 pairs of words: 1, 2, ..., 40
    li t1, 1
1:  addi t2, t1, 1
    addi t0, t0, -1
    beqz t0, 2f
    send2 t1, t2
    addi t1, t1, 2
    j 1b
2:  send2e t1, t2
    waits s1
    rms s1
    endt
receiver:
    li t0, 150              # busy first: the RTS waits for the receive
1:  addi t0, t0, -1
    bnez t0, 1b
    la a2, buffer
    li a3, 1
    str s1, a2, a3
    waitr s1
    rmr s1
    li t3, 0                # the sum: 820
    li t4, 40
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
buffer: .space 160
