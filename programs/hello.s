# Prints a greeting with write and the sum 1..10 with print_int, then exits 0.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li a0, 1                # fd 1: stdout
    la a1, msg
    li a2, 14
    li a7, 64               # write
    ecall
    li t0, 0
    li t1, 10
1:  add t0, t0, t1
    addi t1, t1, -1
    bnez t1, 1b
    mv a0, t0
    li a7, 0x5c00           # print_int
    ecall
    li a0, 10
    li a7, 0x5c02           # print_char '\n'
    ecall
    li a0, 0
    li a7, 93               # exit
    ecall

    .data
msg: .ascii "Hello, world!\n"
