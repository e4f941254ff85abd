# A deadlock, reported (modified NIU): each of two tiles waits to receive
# the other's message before sending its own. Nothing can move; the run
# stops with a report of every blocked context (tile, context, pc,
# instruction, what it waits for) and every held flit (none here).
# run: mesh=2x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    xori s1, s0, 1          # the other tile
    li s2, 3                # message id
    la a2, slot
    li a3, 1
    str s2, a2, a3
    waitr s2                # nobody has sent yet: wait forever
    sendh s1, ready, s2
    sende s0
    endt
    .data
slot: .word 0
