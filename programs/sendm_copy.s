# What a `sendm` costs the issuing thread in each design (thesis 5.5).
# Original NIU: "the NIU retrieves the contents of the message buffers
# referenced by sendm and sendme instructions and places them in the
# transmission queue as flits before accepting further messaging
# instructions from the pipeline. Any messaging instructions issued by the
# pipeline before the sendm or sendme instruction completes will cause the
# thread to suspend." Modified NIU: "the NIU enqueues two temporary
# pseudo-flits" per `sendm`, so a thread "can execute a number of send
# operations without suspending" while its queue has room.
# Tile 0 sends tile 1 one data message: `sendh`, `sendm` of 64 words,
# `sendme` of 64 more. It prints two numbers: the cycles from before the
# `sendm` to the instruction after it (the thread goes on computing in
# both designs), and from there to the instruction after the `sendme` (in
# the original NIU it waits until the first part's 64 words are in the
# queue, one `niu.dma_cycles_per_word` each, whatever the queue's depth;
# in the modified NIU a few cycles when the queue has room for the
# pseudo-flits). Tile 1 prints the sum of the 128 words it received
# (1 + ... + 128 = 8256). tests/ch6_mechanisms.rs runs it at several
# queue depths and copy rates; sendm_copy_original.s is the original NIU.
# run: mesh=2x1 boot=all
    .ifndef ORIGINAL
    .equ ORIGINAL, 0
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    li s1, 5                    # the message id (modified NIU)
    bnez s0, receiver
    la t1, buffer               # 1, 2, ..., 128: the last word is tile
    li t0, 1                    # 1's flag in the original NIU
    li t3, 129
1:  sw t0, 0(t1)
    addi t1, t1, 4
    addi t0, t0, 1
    bne t0, t3, 1b
    li a0, 1
    .if ORIGINAL == 0
    sendh a0, ready, s1
    .else
    la a1, rbuf
    li a2, 1
    sendh a0, data, a1, a2
    .endif
    la t1, buffer
    li t2, (1 << 16) | 64       # stride 1, 64 words
    csrr s2, cycle
    sendm t1, t2
    csrr s3, cycle
    addi t1, t1, 256
    sendme t1, t2
    csrr s4, cycle
    .if ORIGINAL == 0
    waits s1
    rms s1
    .endif
    sub a0, s3, s2              # the sendm
    li a7, 0x5c00
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    sub a0, s4, s3              # the sendme after it
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
receiver:
    la a2, rbuf
    .if ORIGINAL == 0
    li a3, 1
    str s1, a2, a3
    waitr s1
    rmr s1
    .else
    la t0, flag
1:  lw t1, 0(t0)                # the message's last word, when it is in
    bnez t1, 2f
    yield
    j 1b
2:
    .endif
    li t3, 0
    li t4, 128
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
buffer: .zero 512
rbuf: .zero 508
flag: .zero 4                   # rbuf's last word
