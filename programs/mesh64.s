# The largest mesh, 64x64 (isa_spec::msg::MAX_MESH_DIM): tile 0 starts a
# thread on each far corner (node 63: x = 63; 4032: y = 63; 4095: both),
# which answers with a Rendezvous data message of one word, its node id
# times 3 plus 1, under the id of its node. So heads carry offsets of +63
# and -63 in both dimensions, and RTS heads source nodes above 1023 (the
# 12-bit field). Tile 0 checks each word (exit 1 if wrong) and prints it
# with the round trip's cycles. Modified NIU.
# run: mesh=64x64 boot=first niu=modified trace=summary
    .text
    .globl _start
_start:
    la s4, corners
    li s5, 3                # corners left
next:
    lw s1, 0(s4)            # the corner: its node id is the message id
    la t0, word
    li t1, 1
    str s1, t0, t1          # post the receive of its answer
    la t5, far
    csrr s2, cycle
    sendh s1, thread, t5
    sende zero              # a0 of far: the node to answer
    waitr s1
    rmr s1
    csrr s3, cycle
    lw t0, word
    li t1, 3
    mul t1, t1, s1
    addi t1, t1, 1
    bne t0, t1, wrong
    mv a0, s1
    li a7, 0x5c00           # print_int
    ecall
    la a0, sep
    li a7, 0x5c03           # print_string
    ecall
    lw a0, word
    li a7, 0x5c00
    ecall
    la a0, took
    li a7, 0x5c03
    ecall
    sub a0, s3, s2
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02           # print_char
    ecall
    addi s4, s4, 4
    addi s5, s5, -1
    bnez s5, next
    li a0, 0
    li a7, 93               # exit
    ecall
wrong:
    li a0, 1
    li a7, 93
    ecall
far:
    csrr t0, nodeid
    li t1, 3
    mul t1, t1, t0
    addi t1, t1, 1
    sendh a0, rdv, t0
    sende t1
    waits t0
    rms t0
    endt
    .data
corners: .word 63, 4032, 4095
word: .word 0
sep: .asciz " sent "
took: .asciz " in cycles: "
