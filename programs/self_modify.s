# Self-modifying code: a store into the text replaces the next instruction
# before it runs (the predecoded copy is decoded again), so the program
# exits with 42, not 1.
# run: mesh=1x1
    .text
    .globl _start
_start:
    la t0, patch
    li t1, 0x02a00513       # the word of addi a0, zero, 42
    sw t1, 0(t0)
patch:
    addi a0, zero, 1        # replaced before it runs
    li a7, 93
    ecall
