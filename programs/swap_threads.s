# Context exhaustion (niu.context_exhausted, thesis 3.4): tile 0 sends
# tile 1, which has 4 contexts, eight thread messages `work(a0 = i, a1 =
# 12)` at once. Each work thread fills 25 integer and all 32 FP registers
# from i, yields a1 times (ready but not running: a thread the exception
# may swap out), checks every register, and answers tile 0 with
# `collect(a0 = i, a1 = registers found changed)`. Tile 0 prints the sum
# of i (28), the registers found changed (0) and the answers (8).
# With "block" (swap_threads_block.s) the later messages wait in the
# network until a work thread ends; with "swap" the NIU raises the
# exception in ready work threads, the runtime's handler
# (stressmarks/lib/swap.s) saves them, and each resumes, registers intact,
# when the thread that took its context ends (the statistics count both).
# swap_threads_original.s and swap_threads_original_block.s: the same on
# the original NIU. swap_threads_waitr.s and swap_threads_waitr_block.s
# (WAITR): instead of yielding, each work thread posts a receive for
# message i and waits for it (`waitr`, suspended: the thread the exception
# prefers; tile 0 leaves it time to get there); tile 0 then sends each its data, 3i + 7, in Rendezvous mode,
# the last thread's first, which the thread checks too. A thread swapped
# out while suspended issues its `waitr` again when it resumes. With
# "swap" this completes; with "block" it deadlocks, as the thesis's 3.3
# says blocked thread messages can: message 7's RTS waits for a receive
# that only thread 7 would post, whose thread message waits for a context
# that threads 0..3 hold, and their data is queued behind message 7's.
# (Sent first to last, it is the other way round: "swap" deadlocks, since
# a thread swapped out before it posted its receive resumes only when the
# thread that took its context ends, whose data is queued behind its own;
# docs/network.md, "Context exhaustion".)
# run: mesh=2x1 boot=first set=tile.contexts=4 set=niu.context_exhausted=swap
    .text
    .globl _start
_start:
    la s1, work
    li s3, 0                # i
    li s4, 8                # messages
1:  li t0, 1
    mv a0, s3
    li a1, 12
    sendh t0, thread, s1
    send2e a0, a1
    .ifdef WAITR
    li t1, 300              # time for the thread to reach its waitr
5:  addi t1, t1, -1
    bnez t1, 5b
    .endif
    addi s3, s3, 1
    blt s3, s4, 1b
    .ifdef WAITR
    li s3, 7                # then each work thread's data, 3i + 7, as
4:  li t0, 1                # message i, the last first
    sendh t0, rdv, s3
    slli t1, s3, 1
    add t1, t1, s3
    addi t1, t1, 7
    sende t1
    addi s3, s3, -1
    bgez s3, 4b
    .endif
    la t0, answers
2:  lw t1, 0(t0)            # wait for every answer
    beq t1, s4, 3f
    yield
    j 2b
3:  la t0, sum
    lw a0, 0(t0)
    call print
    la t0, changed
    lw a0, 0(t0)
    call print
    la t0, answers
    lw a0, 0(t0)
    call print
    li a0, 10
    li a7, 0x5c02           # print_char
    ecall
    li a0, 0
    li a7, 93               # exit
    ecall
print:                      # a0 and a space
    li a7, 0x5c00           # print_int
    ecall
    li a0, ' '
    li a7, 0x5c02
    ecall
    ret

# The integer registers a work thread fills (all but zero, sp, t0..t2,
# a0 and a1), each with i + its number; the FP registers with i + 40 + n.
    .macro fill_x r, k
    addi \r, a0, \k
    .endm
    .macro check_x r, k
    addi t1, a0, \k
    sub t1, \r, t1
    snez t1, t1
    add t2, t2, t1
    .endm
    .macro fill_f n
    addi t1, a0, 40 + \n
    fcvt.d.w f\n, t1
    .endm
    .macro check_f n
    fcvt.w.d t1, f\n
    addi t1, t1, -(40 + \n)
    sub t1, t1, a0
    snez t1, t1
    add t2, t2, t1
    .endm

work:
    fill_x x1, 1
    fill_x x3, 3
    fill_x x4, 4
    .irp r, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    fill_x x\r, \r
    .endr
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    fill_f \n
    .endr
    .ifdef WAITR
    la t0, bufs             # receive message i into bufs[i] and wait for it
    slli t1, a0, 2
    add t0, t0, t1
    li t1, 1
    str a0, t0, t1
    waitr a0
    .else
1:  yield
    addi a1, a1, -1
    bnez a1, 1b
    .endif
    li t2, 0
    check_x x1, 1
    check_x x3, 3
    check_x x4, 4
    .irp r, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    check_x x\r, \r
    .endr
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    check_f \n
    .endr
    .ifdef WAITR
    la t0, bufs             # the data: 3i + 7
    slli t1, a0, 2
    add t0, t0, t1
    lw t0, 0(t0)
    slli t1, a0, 1
    add t1, t1, a0
    addi t1, t1, 7
    sub t1, t0, t1
    snez t1, t1
    add t2, t2, t1
    rmr a0
    .endif
    li t0, 0                # answer tile 0
    la t1, collect
    mv a1, t2
    sendh t0, thread, t1
    send2e a0, a1
    endt

collect:
    la t0, sum
    amoadd.w zero, a0, (t0)
    la t0, changed
    amoadd.w zero, a1, (t0)
    la t0, answers
    li t1, 1
    amoadd.w zero, t1, (t0)
    endt

    .include "../stressmarks/lib/swap.s"

    .data
sum: .word 0
changed: .word 0
answers: .word 0
bufs: .space 4 * 8
