# A word load from an odd address: a misaligned-access fault.
# run: mesh=1x1
    .text
    .globl _start
_start:
    la t0, value
    lw a0, 0(t0)
    lw a1, 1(t0)            # misaligned
    li a7, 93
    ecall
    .data
    .align 2
value: .word 42, 43
