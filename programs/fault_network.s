# A messaging instruction before the network is modeled: a clear fault,
# not a silent no-op.
# run: mesh=2x1
    .text
    .globl _start
_start:
    li a0, 1                # destination node
    la a1, _start           # handler
    sendh a0, thread, a1
    li a7, 93
    ecall
