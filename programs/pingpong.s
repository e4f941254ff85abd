# Ping-pong with thread messages across 1..14 hops of the 8x8 mesh: tile 0
# starts `pong` on the tile s0 hops away (x first, then y), which starts
# `ack` back on tile 0, which raises a flag. Tile 0 prints the hops and the
# round-trip cycles (both messages, both thread starts, the flag). Thread
# messages exist in both NIU designs; this runs the modified one.
# run: mesh=8x8 boot=first
    .text
    .globl _start
_start:
    li s0, 1                # hops
    la s4, flag
next:
    li t0, 7                # x = min(hops, 7), y = hops - x
    mv t1, s0
    ble t1, t0, 1f
    mv t1, t0
1:  sub t2, s0, t1
    slli t2, t2, 3
    add s1, t2, t1          # the far node
    sw zero, 0(s4)
    la t5, pong
    csrr s2, cycle
    sendh s1, thread, t5
    sende zero              # a0 of pong: the node to answer
2:  lw t6, 0(s4)
    bnez t6, 3f
    yield                   # let `ack` run as soon as it starts
    j 2b
3:  csrr s3, cycle
    mv a0, s0
    li a7, 0x5c00           # print_int
    ecall
    la a0, sep
    li a7, 0x5c03           # print_string
    ecall
    sub a0, s3, s2
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02           # print_char
    ecall
    addi s0, s0, 1
    li t0, 15
    blt s0, t0, next
    li a0, 0
    li a7, 93               # exit
    ecall
pong:
    la t0, ack
    sendh a0, thread, t0
    sende zero
    endt
ack:
    la t0, flag
    li t1, 1
    sw t1, 0(t0)
    endt
    .data
flag: .word 0
sep: .asciz " hops: "
