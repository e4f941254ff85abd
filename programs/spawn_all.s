# A thread spawned on every tile, tile 0's own included (original NIU):
# tile 0 sends each tile a thread message `work(a0 = its node, a1 = 1000)`;
# each new thread computes node * node + a1 and answers with a thread
# message `collect(a0 = node, a1 = result)` back on tile 0, which adds the
# result and counts the answers. Tile 0 prints the sum (16 * 1000 + the
# squares 0..15 = 17240) and the cycles from the first send to the last
# answer.
# run: mesh=4x4 boot=first set=niu.design=original
    .text
    .globl _start
_start:
    csrr s0, ntiles
    csrr s2, cycle
    la s1, work
    li a1, 1000
    li s3, 0                # node
1:  mv a0, s3
    sendh s3, thread, s1
    send2e a0, a1           # a0, a1 of the new thread
    addi s3, s3, 1
    blt s3, s0, 1b
    la t0, answers
2:  lw t1, 0(t0)            # wait for every answer
    beq t1, s0, 3f
    yield
    j 2b
3:  csrr s3, cycle
    la t0, sum
    lw a0, 0(t0)
    li a7, 0x5c00           # print_int
    ecall
    li a0, ' '
    li a7, 0x5c02           # print_char
    ecall
    sub a0, s3, s2
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    li a0, 0
    li a7, 93               # exit
    ecall
work:
    mul t0, a0, a0
    add a1, a1, t0
    li t1, 0                # answer tile 0
    la t2, collect
    sendh t1, thread, t2
    send2e a0, a1
    endt
collect:
    la t0, sum
    amoadd.w zero, a1, (t0)
    la t0, answers
    li t1, 1
    amoadd.w zero, t1, (t0)
    endt
    .data
sum: .word 0
answers: .word 0
