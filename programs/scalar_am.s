# What one scalar message costs in the active-message design (original
# NIU) over one hop (tile 0 to tile 1), as a data message (stored by DMA
# without notification; tile 1 polls the word) and as a thread message
# (its handler stores the word). Tile 0 prints the sender's
# instructions/cycles for sendh + sende; tile 1 prints the one-way latency
# (from the cycle tile 0 read just before its sendh, carried as the
# message's word, to tile 1 seeing the word: the poll loop's load, or the
# handler's first instruction) and, for the thread message, the handler's
# instructions/cycles from its first instruction to `endt`.
# Instructions come from instret, cycles from the cycle CSR; what the
# reading itself costs is subtracted.
# run: mesh=2x1 boot=all set=niu.design=original
    .include "measure.inc"
    .text
    .globl _start
_start:
    calibrate               # what counting costs: s10, s11
    la t0, marks            # for the handler's context
    sw s10, 0(t0)
    sw s11, 4(t0)
    csrr s0, nodeid
    bnez s0, receiver
sender:
    li a0, 1
    la a2, slot
    li a3, 1
    csrr a1, cycle          # data message
    mark t2, t3
    sendh a0, data, a2, a3
    sende a1
    since t2, t3, s2, s3
    la a0, data_text
    mv a1, s2
    mv a2, s3
    call report
    li t0, 300              # let it arrive and be printed
1:  addi t0, t0, -1
    bnez t0, 1b
    li a0, 1
    la a2, handler
    csrr a1, cycle          # thread message
    mark t2, t3
    sendh a0, thread, a2
    sende a1
    since t2, t3, s2, s3
    la a0, thread_text
    mv a1, s2
    mv a2, s3
    call report
    endt
receiver:
    la t0, slot             # poll for the data message's word
1:  lw t1, 0(t0)
    beqz t1, 1b
    csrr t2, cycle
    sub a1, t2, t1
    la a0, data_latency
    li a2, -1
    call report
    la t0, done             # wait for the handler's figures
1:  lw t1, 0(t0)
    bnez t1, 2f
    yield
    j 1b
2:  la t0, figures
    lw a1, 0(t0)
    la a0, thread_latency
    li a2, -1
    call report
    la t0, figures
    lw a1, 4(t0)
    lw a2, 8(t0)
    la a0, handler_text
    call report
    endt
handler:                    # a0: the sender's stamp
    csrr t0, cycle          # first instruction: the word is seen
    la t1, marks            # (what the marks cost, as measured by
    lw s10, 0(t1)           # context 0)
    lw s11, 4(t1)
    mark t2, t3
    la t1, value
    sw a0, 0(t1)
    since t2, t3, t4, t5
    sub t0, t0, a0
    la t1, figures          # the figures (not counted: they exist only
    sw t0, 0(t1)            # to be printed)
    addi t4, t4, 1          # the endt to come
    addi t5, t5, 1
    sw t4, 4(t1)
    sw t5, 8(t1)
    la t1, done
    li t2, 1
    sw t2, 0(t1)
    endt
report:                     # prints string a0, a1, then "/a2" if a2 >= 0
    mv t5, a1
    mv t6, a2
    li a7, 0x5c03           # print_string
    ecall
    mv a0, t5
    li a7, 0x5c00           # print_int
    ecall
    bltz t6, 1f
    li a0, '/'
    li a7, 0x5c02           # print_char
    ecall
    mv a0, t6
    li a7, 0x5c00
    ecall
1:  li a0, 10
    li a7, 0x5c02
    ecall
    ret
    .data
slot: .word 0
value: .word 0
done: .word 0
figures: .word 0, 0, 0
marks: .word 0, 0
data_text: .asciz "data message: sender issue "
thread_text: .asciz "thread message: sender issue "
data_latency: .asciz "data message: latency to the poll "
thread_latency: .asciz "thread message: latency to the handler "
handler_text: .asciz "thread message: handler "
