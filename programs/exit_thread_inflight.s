# An exit that ends the run while a thread message is still arriving (issue
# 19, found by the messaging fuzz target): tile 0 sends tile 1 a thread
# message (4 flits) and exits 4 cycles later; tile 1, idle since its endt,
# is taking the message in when the run ends. Nothing at or after the
# exit's cycle is part of the run: the network stops there, the thread
# does not start (tile 1 shows one thread), and tile 1's cycles are issuing
# up to its endt (13), idle after it. The network side used to run on past
# the exit (tile 0 had run to it inline, and no tile limited the network)
# and start the thread after the end, moving tile 1's clock there as idle
# time, which the end then took back from issuing: tile 1 showed 10
# instructions in 8 issuing cycles and two threads, in every mode.
# run: mesh=2x1 boot=all set=niu.design=original
    .text
    .globl _start
_start:
    csrr t0, nodeid
    bnez t0, 1f
    li t1, 10               # tile 0: a while, then a thread message
2:  addi t1, t1, -1         # with 2 arguments
    bnez t1, 2b
    li s2, 1
    la s3, handler
    sendh s2, thread, s3
    li t3, 1
    li t4, 2
    send2e t3, t4
    li a0, 3                # exit(3) while tile 1 takes in the message
    li a7, 93
    ecall
1:  li t1, 3                # tile 1: a few instructions, then idle
2:  addi t1, t1, -1
    bnez t1, 2b
    endt
handler:
    li a7, 93               # never runs: the run ends first
    ecall
