# Messages to one's own tile (modified NIU, Ready mode): tile 0 posts a
# receive, sends one word to itself and polls the buffer, then prints how
# many cycles after the sendh it first read the word; four rounds, the
# polling loop starting 0 to 3 cycles later in each (so that some load
# issues in the very cycle the word becomes visible). The path is one
# router (in by the local port and out again), shorter than any between
# two tiles, and the tile computes (polls) while its own NIU sends: the
# synchronization must not let it run past the word's arrival (the
# cross-checks compare with lockstep). Tile 1 computes meanwhile.
# run: mesh=2x1 boot=all niu=modified
    .macro round id, pad
    li s1, \id              # message id
    str s1, s4, s5          # post the receive
    li a0, 0                # to itself
    li a1, 0x5a + \id
    csrr s2, cycle
    sendh a0, ready, s1
    sende a1
    .rept \pad
    nop
    .endr
1:  lw t0, 0(s4)            # poll the slot
    beqz t0, 1b
    csrr s3, cycle
    sub a0, s3, s2
    li a7, 0x5c00           # print_int
    ecall
    li a0, 10
    li a7, 0x5c02           # print_char '\n'
    ecall
    waits s1
    rms s1
    waitr s1
    rmr s1
    sw zero, 0(s4)
    .endm
    .text
    .globl _start
_start:
    csrr s0, nodeid
    bnez s0, other
    la s4, slot
    li s5, 1                # stride
    round 1, 0
    round 2, 1
    round 3, 2
    round 4, 3
    endt
other:
    li t0, 100              # compute meanwhile
2:  addi t0, t0, -1
    bnez t0, 2b
    endt
    .data
slot: .word 0
