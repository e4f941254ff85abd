# exit on one tile ends the whole run at that cycle: tile 1 prints a line
# before tile 0 exits and another one after; only the first appears, and the
# run's exit code is tile 0's. (Tile 1, simulated after tile 0, still ran on
# to the end of the epoch, which only its own statistics show.)
# run: mesh=2x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    bnez s0, tile1
    li t0, 20               # tile 0: a short spin, then exit(7)
1:  addi t0, t0, -1
    bnez t0, 1b
    li a0, 7
    li a7, 93
    ecall
tile1:
    la a0, early
    li a7, 0x5c03           # print_string
    ecall
    li t0, 200              # long after tile 0's exit
1:  addi t0, t0, -1
    bnez t0, 1b
    la a0, late
    li a7, 0x5c03
    ecall
    endt

    .data
early: .string "early\n"
late:  .string "late\n"
