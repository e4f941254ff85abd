# Only the message at the front of a context's queue sends its RTS
# (modified NIU, thesis 5.6.2: "Once the head and tag flit pair reach the
# head of the queue, the NIU ... will transmit an RTS message"). Tile 0's
# context 0 queues two Rendezvous messages: A to tile 1, then B to tile 2.
# Tile 2 posts its receive at once, tile 1 only after a long delay; B's RTS
# cannot go before A has gone, so B completes only after tile 1 posted.
# Tile 0 also starts a thread on its own context 1 (before A and B), which
# sends C to tile 3 through its own queue: C does not wait for A. Each
# receiver prints `tile cycle` (tile 1: when it posted; tiles 2 and 3: when
# the message was Complete); tests/ch6_mechanisms.rs checks the order
# 3 < 1 < 2.
# With --defsym PEEK=1 (rts_front_peek.s) tile 2 first waits PEEK_AT
# iterations (long enough for an RTS sent at once to have arrived), loads
# its entry's state for B with `ldsr` and prints it as a third number: 0
# (Empty) while A waits for tile 1, where 3 (RTS Received) would mean B's
# RTS went before A had gone. DELAY is tile 1's wait (iterations).
# run: mesh=2x2 boot=all
    .ifndef PEEK
    .equ PEEK, 0
    .endif
    .ifndef PEEK_AT
    .equ PEEK_AT, 150
    .endif
    .ifndef DELAY
    .equ DELAY, 400
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    addi s1, s0, 0              # the message id: the receiving tile
    beqz s0, sender
    li t0, 1
    .if PEEK
    li s3, 0
    li t1, 2
    bne s0, t1, 3f
    li t1, PEEK_AT              # tile 2: busy, then look at B's entry
4:  addi t1, t1, -1
    bnez t1, 4b
    ldsr s3, s1
3:
    .endif
    bne s0, t0, post            # tiles 2 and 3 post at once
    li t0, DELAY                # tile 1: busy first
1:  addi t0, t0, -1
    bnez t0, 1b
    csrr s2, cycle
post:
    la a2, word
    li a3, 1
    str s1, a2, a3
    waitr s1
    rmr s1
    li t0, 1
    beq s0, t0, 2f
    csrr s2, cycle
2:  mv a0, s0
    li a7, 0x5c00
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    mv a0, s2
    li a7, 0x5c00
    ecall
    .if PEEK
    li t0, 2
    bne s0, t0, 5f
    li a0, ' '
    li a7, 0x5c02
    ecall
    mv a0, s3
    li a7, 0x5c00
    ecall
5:
    .endif
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
sender:
    la t0, third                # C, from context 1
    sendh zero, thread, t0
    sende zero
    li a0, 1                    # A
    li t1, 11
    sendh a0, rdv, a0
    sende t1
    li a0, 2                    # B
    li t1, 22
    sendh a0, rdv, a0
    sende t1
    li a0, 1
    waits a0
    rms a0
    li a0, 2
    waits a0
    rms a0
    endt
third:
    li a0, 3
    li t1, 33
    sendh a0, rdv, a0
    sende t1
    waits a0
    rms a0
    endt
    .bss
    .p2align 2
word: .zero 4
