# A deadlock whose last activity is a thread that the network started in its
# last cycles (issue 19, found by the messaging fuzz target): tile 0's
# context 1 waits forever for the CTS of a Rendezvous send that tile 1 never
# receives, while tile 0's context 0 starts a handler on tile 1 late. The
# run ends after the handler's endt in every mode; the default mode ended
# it 12 cycles earlier, where the network's clock stood (the handler ran
# ahead of it), with 17 instructions in 5 issuing cycles on tile 1.
# run: mesh=1x2 boot=all threads=2
    .text
    .globl _start
_start:
    csrr t0, nodeid
    csrr t1, ctxid
    bnez t0, 1f
    bnez t1, 3f
    li t2, 40               # tile 0, context 0: a while, then a thread
2:  addi t2, t2, -1         # message to tile 1
    bnez t2, 2b
    li s2, 1
    la s3, handler
    sendh s2, thread, s3
    li t3, 5
    sende t3
1:  endt
3:  li s2, 1                # tile 0, context 1: a Rendezvous send that
    li s3, 7                # tile 1 never receives
    sendh s2, rdv, s3
    li t3, 5
    sende t3
    waits s3
    endt
handler:
    .rept 12
    nop
    .endr
    endt
