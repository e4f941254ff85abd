# jalr to an address that is not a multiple of 4 (no compressed instructions).
# run: mesh=1x1
    .text
    .globl _start
_start:
    la t0, _start
    addi t0, t0, 2
    jalr ra, 0(t0)
