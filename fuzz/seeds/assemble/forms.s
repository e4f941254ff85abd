# Seed: directives, macros, conditionals and expressions in one small file.
    .equ N, 4
    .set M, N * 2 + (1 << 3)
    .macro push reg, off=0
    sw \reg, \off(sp)
    .endm
    .macro count from, to
    .word \from
    .if \to - \from
    count (\from + 1), \to
    .endif
    .endm
    .text
    .globl _start
_start:
    addi sp, sp, -16
    push ra, 4
    push s0
    la t0, table
    li t1, M
1:  lw t2, 0(t0)
    addi t0, t0, 4
    addi t1, t1, -1
    bnez t1, 1b
    csrr a0, nodeid
    sendh a0, thread, t0
    sende a0
    fmadd.s fa0, fa1, fa2, fa3
    .ifdef N
    .rept N
    nop
    .endr
    .else
    .error "no N"
    .endif
    call f
    endt
f:  ret
    .data
    .balign 4
table:
    count 0, 3
    .byte 1, 2, 'a', -1
    .half 0x1234
    .asciz "x\n\t\"y"
    .space 8, 0xff
    .section .rodata, "a"
    .float 1.5
    .double -0.25
