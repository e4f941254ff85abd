# Every tile but 0 sends tile 0 the square of its node id (message id =
# node id, Rendezvous); tile 0 receives them in order and prints the sum.
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, gather
    li a0, 0                # to tile 0
    sendh a0, rdv, s0       # message id: our node id
    mul t0, s0, s0
    sende t0                # the one word, and the end of the message
    waits s0                # until it is delivered
    rms s0                  # free the send-table entry
    endt
gather:
    csrr s3, ntiles
    la s2, words
    li s1, 1
    li s4, 0                # the sum
1:  slli t0, s1, 2
    add t0, t0, s2          # &words[s1]
    li t1, 1                # stride, in words
    str s1, t0, t1          # post the receive of id s1
    waitr s1                # until its word is here
    rmr s1                  # free the receive-table entry
    lw t2, 0(t0)
    add s4, s4, t2
    addi s1, s1, 1
    blt s1, s3, 1b
    mv a0, s4
    li a7, 23552            # print_int
    ecall
    li a0, 0
    li a7, 93               # exit
    ecall
    .data
words: .zero 4 * 64
