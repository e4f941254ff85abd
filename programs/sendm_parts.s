# A message of three sendm parts (modified NIU, thesis 5.5): tile 0 sends
# tile 1 one Rendezvous message, `sendh`, `sendm` of 64 words, `sendm` of
# 64 more, `sendme` of the last 64, through a 4-flit transmission queue.
# The head and tag take two flits and the first `sendm` its two
# pseudo-flits: the queue is full. The second `sendm` goes in once head and
# tag have left (after the CTS). A part's pseudo-flits stay in the queue
# until its memory transfer ends ("the NIU does not pull any more flits
# from the transmission queue until the memory transfer has completed"),
# so the `sendme` suspends until all 64 words of the first part have left:
# tile 0 prints how long the second `sendm` and the `sendme` took (the
# second at least 64 DMA periods; with a 16-flit queue a few cycles each,
# tests/ch6_mechanisms.rs). Tile 1 prints the sum of the 192 words it
# received (1 + ... + 192 = 18528).
# run: mesh=2x1 boot=all set=niu.queue_flits=4
    .text
    .globl _start
_start:
    csrr s0, nodeid
    li s1, 9                    # the message id
    bnez s0, receiver
    la t1, buffer               # 1, 2, ..., 192
    li t0, 1
    li t3, 193
1:  sw t0, 0(t1)
    addi t1, t1, 4
    addi t0, t0, 1
    bne t0, t3, 1b
    li a0, 1
    sendh a0, rdv, s1
    la t1, buffer
    li t2, (1 << 16) | 64       # stride 1, 64 words
    sendm t1, t2
    csrr s2, cycle
    addi t1, t1, 256
    sendm t1, t2
    csrr s3, cycle
    addi t1, t1, 256
    sendme t1, t2
    csrr s4, cycle
    waits s1
    rms s1
    sub a0, s3, s2              # the second part's sendm
    li a7, 0x5c00
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    sub a0, s4, s3              # the sendme
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
receiver:
    la a2, rbuf
    li a3, 1
    str s1, a2, a3
    waitr s1
    rmr s1
    li t3, 0
    li t4, 192
1:  lw t5, 0(a2)
    add t3, t3, t5
    addi a2, a2, 4
    addi t4, t4, -1
    bnez t4, 1b
    mv a0, t3
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
    .bss
    .p2align 2
buffer: .zero 768
rbuf: .zero 768
