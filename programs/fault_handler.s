# A thread message whose handler is not a multiple of 4 (issue 19, bug 2):
# the `sendh` faults, traced or not, as a misaligned `jr` target does at the
# `jr` (the receiver would otherwise run from the word below the address).
# run: mesh=2x1 boot=first
    .text
    .globl _start
_start:
    li s0, 1                # to tile 1
    la s1, work
    addi s1, s1, 2          # work + 2: not an instruction address
    sendh s0, thread, s1
    send2e a0, a1
    endt
work:
    li a0, 7
    li a7, 0x5c00           # print_int
    ecall
    li a0, 0
    li a7, 93               # exit
    ecall
