# A messaging instruction used wrongly is a fault with a clear cause, not a
# silent no-op: here a body flit with no message header before it.
# run: mesh=2x1
    .text
    .globl _start
_start:
    li a0, 42
    sende a0                # no sendh opened a message
    li a7, 93
    ecall
