# SPMD: every tile runs the same image; each computes a value from its node
# id and prints it; output lines carry the [tile context] prefix. `scmp run`
# with no program runs this on every tile of the default 8x8 mesh; the
# program tests run it on 2x2.
# run: mesh=2x2 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    la a0, msg
    li a7, 0x5c03           # print_string
    ecall
    mv a0, s0
    li a7, 0x5c00
    ecall
    li a0, ':'
    li a7, 0x5c02
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    addi t0, s0, 1          # (id + 1) * 1000, busier tiles finish later
    li t1, 1000
    mul a0, t0, t1
    li t2, 0
1:  addi t2, t2, 100        # spin id+1 rounds
    blt t2, a0, 1b
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt

    .data
msg: .string "node "
