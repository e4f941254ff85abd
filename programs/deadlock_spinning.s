# A "no progress" deadlock (issue 19, found by the differential fuzz
# target): tile 1 posts a receive of message id 4, which nobody sends, and
# polls the word it would write (lw, yield), while tiles 0 and 2 both send
# it a Rendezvous message id 5 that it never receives: the first RTS is
# recorded, the second waits in the ejection buffer for ever. No flit
# moves, yet tile 1 runs. The report names the first cycle at which no flit
# had moved for network.stall_cycles (40) and every tile's state before it,
# in every mode. Before, tile 1 ran on past it (optimistically: nothing was
# coming to it) and the report showed its state, and the statistics its
# instructions, from wherever it had got to: 55 instructions in lockstep,
# 57 with a 7-cycle epoch, 2,953 by default and 749,009 with a 2^20-cycle
# epoch in a run of 55 cycles, each with another pc (the fuzz target's
# program polled with ldsr: ldsr by default, yield in lockstep). The
# headline counted the cycles since the network's last event (41), or
# since the last ldsr, as the network's stall.
# run: mesh=3x1 boot=all set=network.stall_cycles=40
    .text
    .globl _start
_start:
    csrr t0, nodeid
    li t1, 1
    beq t0, t1, 2f
    li s2, 1                # tiles 0 and 2: a Rendezvous message id 5 to
    li s3, 5                # tile 1, which never posts its receive
    sendh s2, rdv, s3
    sende zero
    waits s3
    endt
2:  li s3, 4                # tile 1: post a receive of id 4 and poll the
    la s4, buf              # word it writes
    li s5, 1
    str s3, s4, s5
    li t5, 7
1:  lw t2, 0(s4)
    beq t2, t5, 3f
    nop
    yield
    j 1b
3:  rmr s3
    endt
    .data
buf: .word 0
