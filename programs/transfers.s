# Send-and-receive transfers between two tiles (modified NIU), each visible
# in the trace's NIU records:
# 1. Rendezvous, receive posted late: the RTS finds no entry (RTS Received),
#    the receiver's `str` answers with the CTS, 8 words stream from memory
#    (`sendme`) and the receive goes Complete;
# 2. Ready, receive posted first: the receiver posts, then tells the sender
#    with a thread message; the data goes straight into the buffer;
# 3. Ready with no receive posted: the message is discarded and counted.
# run: mesh=2x1 boot=all
    .text
    .globl _start
_start:
    csrr s0, nodeid
    bnez s0, receiver
    li a0, 1                # the receiver
    li s1, 1                # 1: Rendezvous, 8 words
    sendh a0, rdv, s1
    la a2, src
    li a3, (1 << 16) | 8    # stride 1, 8 words
    sendme a2, a3
    waits s1                # Complete once the last word has left
    rms s1
    la t0, go               # 2: Ready, once the receiver says go
1:  lw t1, 0(t0)
    bnez t1, 2f
    yield
    j 1b
2:  li s1, 2
    sendh a0, ready, s1
    li t2, 0x1234
    sende t2
    waits s1
    rms s1
    li s1, 3                # 3: Ready, nobody posted a receive
    sendh a0, ready, s1
    sende t2
    waits s1
    rms s1
    endt
receiver:
    li t0, 100              # busy a while: the RTS arrives first
1:  addi t0, t0, -1
    bnez t0, 1b
    li s1, 1
    la a2, dst
    li a3, 1
    str s1, a2, a3          # RTS Received: the CTS goes now
    waitr s1
    rmr s1
    li t3, 0                # the sum of the 8 words
    li t4, 8
1:  lw t5, 0(a2)
    add t3, t3, t5
    addi a2, a2, 4
    addi t4, t4, -1
    bnez t4, 1b
    mv a0, t3
    li a7, 0x5c00           # print_int
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    li s1, 2                # post the Ready receive, then say go
    la a2, dst2
    str s1, a2, a3
    li a0, 0
    la t0, go_handler
    sendh a0, thread, t0
    sende zero
    waitr s1
    rmr s1
    lw a0, 0(a2)
    li a7, 0x5c01           # print_hex
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
go_handler:
    la t0, go
    li t1, 1
    sw t1, 0(t0)
    endt
    .data
src: .word 1, 2, 3, 4, 5, 6, 7, 8
dst: .space 32
dst2: .word 0
go: .word 0
