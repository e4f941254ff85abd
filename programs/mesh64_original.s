# The largest mesh, 64x64, with the original NIU's active messages: tile 0
# starts a thread on each far corner (node 63, 4032, 4095), which stores
# one word, its node id times 3 plus 1, into tile 0's `word` with a data
# header of the largest stride (MAX_STRIDE, 131071 words: the 17-bit field
# beside the 1-bit type code). Tile 0 waits for the word, checks it (exit 1
# if wrong) and prints it with the round trip's cycles.
# run: mesh=64x64 boot=first niu=original trace=summary
    .text
    .globl _start
_start:
    la s4, corners
    li s5, 3                # corners left
next:
    lw s1, 0(s4)            # the corner
    la t0, word
    sw zero, 0(t0)
    la t5, far
    csrr s2, cycle
    sendh s1, thread, t5
    sende zero              # a0 of far: the node to answer
1:  lw t0, word
    bnez t0, 2f
    yield
    j 1b
2:  csrr s3, cycle
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
    la t2, word
    li t3, 131071           # MAX_STRIDE
    sendh a0, data, t2, t3
    sende t1
    endt
    .data
corners: .word 63, 4032, 4095
word: .word 0
sep: .asciz " sent "
took: .asciz " in cycles: "
