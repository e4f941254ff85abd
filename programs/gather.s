# A gather from 63 tiles to tile 0 done right (modified NIU, Rendezvous):
# as in gather_deadlock.s every other tile of the 8x8 mesh sends tile 0 one
# word with message id = its node id, and the senders' RTSs fill tile 0's
# receive table (RTS Received) before it has posted anything. Tile 0 serves
# the ids whose RTS has arrived: it reads each outstanding id's state
# (`ldsr`, as SCMPPollReceive does), and only for RTS Received posts the
# receive (`str` then takes the entry the RTS holds, no new one), waits for
# the word and removes the entry, which lets a waiting RTS in. It never
# needs a free entry, so it cannot find the table full. It checks every
# word (node id times 3) and exits with the number of wrong ones (0).
# docs/libraries.md, "Gathering from many tiles", explains the pattern.
# run: mesh=8x8 boot=all trace=summary
    .equ RTS_RECEIVED, 3
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, gather
    li a0, 0
    sendh a0, rdv, s0
    li t0, 3
    mul t0, t0, s0
    sende t0
    waits s0
    rms s0
    endt
gather:
    la s2, words
    la s4, done             # done[id] = 1 once received
    csrr s3, ntiles
    addi s5, s3, -1         # messages still to come
sweep:
    li s1, 1
next:
    add t2, s4, s1
    lbu t3, 0(t2)
    bnez t3, skip           # received already
    ldsr t4, s1
    li t5, RTS_RECEIVED
    bne t4, t5, skip        # its RTS has not come yet: look again later
    slli t0, s1, 2
    add t0, t0, s2
    li t1, 1
    str s1, t0, t1          # the RTS's entry: CTS now
    waitr s1
    rmr s1                  # frees the entry for a waiting RTS
    li t3, 1
    sb t3, 0(t2)
    addi s5, s5, -1
    beqz s5, check
skip:
    addi s1, s1, 1
    blt s1, s3, next
    j sweep
check:
    li a0, 0                # wrong words
    li s1, 1
1:  slli t0, s1, 2
    add t0, t0, s2
    lw t1, 0(t0)
    li t3, 3
    mul t3, t3, s1
    beq t1, t3, 2f
    addi a0, a0, 1
2:  addi s1, s1, 1
    blt s1, s3, 1b
    li a7, 93
    ecall
    .data
words: .zero 4 * 64
done: .zero 64
