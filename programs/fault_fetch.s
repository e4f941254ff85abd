# A jump outside memory: the instruction fetch faults at the target.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li t0, 0x01000000
    jr t0
