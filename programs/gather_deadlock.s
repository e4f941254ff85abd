# A gather that deadlocks (modified NIU, Rendezvous): on an 8x8 mesh every
# other tile sends tile 0 one word, with message id = its node id, and
# tile 0, busy for a while first, then receives them from the farthest
# tile down (str, waitr, rmr). The senders' RTSs arrive before tile 0 has posted the
# receives for them, and each records itself in tile 0's receive table
# (RTS Received): 32 of them fill the table (niu.receive_table_entries),
# the others wait in the network, and tile 0's `str` for an id whose RTS
# is not in the table finds no free entry.
# Nothing can move; the report says what fills the table and what would
# help. programs/gather.s is the same gather done right.
# run: mesh=8x8 boot=all trace=none
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, gather
    # Sender: one word, its node id times 3, to tile 0.
    li a0, 0
    sendh a0, rdv, s0
    li t0, 3
    mul t0, t0, s0
    sende t0
    waits s0
    rms s0
    endt
gather:
    li t0, 200              # busy: every RTS arrives meanwhile
1:  addi t0, t0, -1
    bnez t0, 1b
    la s2, words
    csrr s1, ntiles
    addi s1, s1, -1         # id = the sender's node id, 63 first
receive:
    slli t0, s1, 2
    add t0, t0, s2
    li t1, 1
    str s1, t0, t1          # waits for ever: the table is full of others' RTSs
    waitr s1
    rmr s1
    addi s1, s1, -1
    bnez s1, receive
    li a7, 93
    li a0, 0
    ecall
    .data
words: .zero 4 * 64
