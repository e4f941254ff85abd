# A Rendezvous send nobody receives: tile 0 sends message id 5 to tile 1,
# which never posts a receive for it, and waits for its completion. The
# RTS arrives (tile 1's receive table records it) but no CTS ever comes, so
# nothing can move: the run stops with a deadlock report (exit status 125)
# naming the waiting context, the send waiting for its CTS and the RTS
# waiting for a receive, instead of running on to the cycle limit.
# run: mesh=2x1 boot=first
    .text
    .globl _start
_start:
    li a0, 1
    li s1, 5
    sendh a0, rdv, s1
    sende zero
    waits s1
    endt
