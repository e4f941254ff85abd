# Messaging-heavy: tiles 0 and 1 pass one word back and forth ROUNDS
# times (modified NIU, Rendezvous); every other tile computes WORK loop
# iterations and ends.
    .ifndef ROUNDS
    .equ ROUNDS, 2000
    .endif
    .ifndef WORK
    .equ WORK, 20000
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    li t0, 2
    bltu s0, t0, player
    li t0, WORK
1:  addi t1, t1, 3
    xor t2, t1, t0
    sw t2, -4(sp)
    addi t0, t0, -1
    bnez t0, 1b
    endt
player:
    xori s2, s0, 1          # the other player
    li s3, 0
    la s4, slot
    li s5, 1
    bnez s0, receive
send:
    sendh s2, rdv, s3
    sende s3
    waits s3
    rms s3
    addi s3, s3, 1
    li t0, ROUNDS
    bge s3, t0, done
receive:
    str s3, s4, s5
    waitr s3
    rmr s3
    addi s3, s3, 1
    li t0, ROUNDS
    blt s3, t0, send
done:
    endt
    .data
slot: .word 0
