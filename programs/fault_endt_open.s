# A thread that ends with a message open (a header and a body flit, no
# tail) is a fault at its `endt`, naming the `sendh` that opened the
# message: without its tail the message would hold its path through the
# network (wormhole) or its send entry for ever, and the run would end in
# a deadlock far from the cause, or silently (issue 19.3).
# run: mesh=2x1
    .text
    .globl _start
_start:
    li a0, 1                # to tile 1
    li s1, 5                # message id
    sendh a0, rdv, s1
    send s1                 # a body flit; sende would have ended it
    endt
