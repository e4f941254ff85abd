# A transmission queue keeps the injection channel until it has sent one
# whole message (thesis 5.6.2: a queue that is ready "gains control of the
# injection channel"; 3.2's wormhole messages are not interleaved). Both
# NIUs: tile 0's context 0 sends tile 1 a message of 128 words (`sendme`);
# context 1, started by a thread message before it, sends tile 2 one word
# meanwhile. In the modified NIU the two contexts have their own queues
# (Ready mode, so that no handshake orders them) and one injection channel:
# the one-word message goes only after the long one's tail. In the original
# NIU (--defsym ORIGINAL=1, channel_hold_original.s) both share the one
# queue. Receives are posted while tile 0 fills its buffer; tiles 1, 2 print `tile cycle` when their message is in;
# tests/ch6_mechanisms.rs checks that tile 2's comes after tile 1's.
# run: mesh=3x1 boot=all
    .ifndef ORIGINAL
    .equ ORIGINAL, 0
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, sender
    la s1, flag                 # tiles 1 and 2
    .if ORIGINAL == 0
    la a2, buffer
    li a3, 1
    str s0, a2, a3
    waitr s0
    rmr s0
    .else
1:  lw t0, 0(s1)                # the message's last word, when it is in
    bnez t0, 2f
    yield
    j 1b
2:
    .endif
    csrr s2, cycle
    mv a0, s0
    li a7, 0x5c00
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    mv a0, s2
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
sender:
    li t0, 1                    # 1, 2, ..., 128: the last word, 128, is
    la t1, buffer               # tile 1's flag in the original NIU
2:  sw t0, 0(t1)
    addi t1, t1, 4
    addi t0, t0, 1
    li t2, 129
    bne t0, t2, 2b
    la t0, short                # context 1, then at once the long message
    sendh zero, thread, t0
    sende zero
    li a0, 1
    .if ORIGINAL == 0
    sendh a0, ready, a0
    .else
    la a1, buffer
    li a2, 1
    sendh a0, data, a1, a2
    .endif
    la t1, buffer
    li t2, (1 << 16) | 128
    sendme t1, t2
    .if ORIGINAL == 0
    waits a0
    rms a0
    .endif
    endt
short:
    li t0, 20                   # the long message has started
1:  addi t0, t0, -1
    bnez t0, 1b
    li a0, 2
    li t1, 1
    .if ORIGINAL == 0
    sendh a0, ready, a0
    sende t1
    waits a0
    rms a0
    .else
    la a1, flag
    li a2, 1
    sendh a0, data, a1, a2
    sende t1
    .endif
    endt
    .bss
    .p2align 2
buffer: .zero 508
flag: .zero 4                   # buffer's last word
