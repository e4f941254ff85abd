# A word that is no instruction: the run stops with an illegal-instruction report.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li a0, 1
    addi a0, a0, 1
    .word 0x00000000        # all zeros is reserved as illegal
    li a7, 93
    ecall
