# A store beyond the 8 MiB of tile memory: an access fault.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li t0, 0x00800000       # one past the last byte
    li t1, 7
    sw t1, -4(t0)           # the last word is fine
    sw t1, 0(t0)            # out of range
    li a7, 93
    ecall
