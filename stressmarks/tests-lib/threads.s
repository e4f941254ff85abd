# threads.s: the test of createThread and parExecute, the same for both
# libraries (each wrapper includes this body and am.s or sr.s). Node 0 runs
# it (boot=first); the other nodes only run the threads it creates.
#   1. createThread(p, compute, record, p, 10, 20, 30, 40) on every node p:
#      `compute` checks it runs on node p and returns p*1000 + 300 (from its
#      five arguments); the callback `record` runs on node 0 with that result.
#   2. createThread(p, poke, 0, p, 5) on every node: `poke` returns nothing
#      to a callback, it creates a thread on node 0 itself (`record`) with
#      p*1000 + 5 + its node's number of contexts.
#   3. parExecute(P, par, 7, 8, 9, 10, 11): every node reports its id * 1000
#      + 45 (the five arguments' sum) the same way.
# Node 0 waits for the P reports of each part and checks every one; a wrong
# one prints FAIL and ends the run with exit code 1.

    .include "check.s"
    .text
    .globl _start
_start:
    csrr s1, ntiles
    # 1. with a callback
    li s0, 0
1:  mv a0, s0
    la a1, compute
    la a2, record
    mv a3, s0
    li a4, 10
    li a5, 20
    li a6, 30
    li a7, 40
    call createThread
    addi s0, s0, 1
    bltu s0, s1, 1b
    li a0, 300
    la a1, callback_text
    call expect_reports
    # 2. no callback: the thread creates one itself
    li s0, 0
2:  mv a0, s0
    la a1, poke
    li a2, 0
    mv a3, s0
    li a4, 5
    call createThread
    addi s0, s0, 1
    bltu s0, s1, 2b
    csrr t0, nctx
    addi a0, t0, 5
    la a1, no_callback_text
    call expect_reports
    # 3. parExecute
    mv a0, s1
    la a1, par
    li a2, 7
    li a3, 8
    li a4, 9
    li a5, 10
    li a6, 11
    call parExecute
    li a0, 45
    la a1, par_execute_text
    call expect_reports
    endt

# expect_reports(a0 = offset, a1 = label): waits for the P reports, checks
# that node p reported p*1000 + offset, clears them, prints "label: ok".
expect_reports:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s2, 8(sp)
    sw s3, 4(sp)
    sw s4, 0(sp)
    mv s2, a0
    mv s3, a1
    la t0, reports_seen
1:  lw t1, 0(t0)
    beq t1, s1, 2f
    yield
    j 1b
2:  sw zero, 0(t0)
    li s4, 0
3:  la t0, reports
    slli t1, s4, 2
    add t0, t0, t1
    lw a0, 0(t0)
    sw zero, 0(t0)
    li t1, 1000
    mul a1, s4, t1
    add a1, a1, s2
    mv a2, s3
    call check_int
    addi s4, s4, 1
    bltu s4, s1, 3b
    mv a0, s3
    call print_str
    la a0, ok_text
    call print_str
    lw ra, 12(sp)
    lw s2, 8(sp)
    lw s3, 4(sp)
    lw s4, 0(sp)
    addi sp, sp, 16
    ret

# compute(a0 = p, a1..a4 = 10, 20, 30, 40) -> p*1000 + a1 + 2 a2 + 3 a3 + 4 a4
# (-1 on another node than p)
compute:
    csrr t0, nodeid
    bne t0, a0, 1f
    li t0, 1000
    mul a0, a0, t0
    add a0, a0, a1
    slli a2, a2, 1
    add a0, a0, a2
    li t0, 3
    mul a3, a3, t0
    add a0, a0, a3
    slli a4, a4, 2
    add a0, a0, a4
    ret
1:  li a0, -1
    ret

# poke(a0 = p, a1 = 5): reports p*1000 + 5 + contexts by a thread on node 0
poke:
    addi sp, sp, -16
    sw ra, 12(sp)
    csrr t0, nodeid
    li a3, -1
    bne t0, a0, 1f
    li t0, 1000
    mul a3, a0, t0
    add a3, a3, a1
    csrr t0, nctx
    add a3, a3, t0
1:  li a0, 0
    la a1, record
    li a2, 0
    call createThread
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# par(a0..a4 = 7, 8, 9, 10, 11): reports id*1000 + the arguments' sum
par:
    addi sp, sp, -16
    sw ra, 12(sp)
    add a0, a0, a1
    add a0, a0, a2
    add a0, a0, a3
    add a3, a0, a4
    csrr t0, nodeid
    li t1, 1000
    mul t0, t0, t1
    add a3, a3, t0
    li a0, 0
    la a1, record
    li a2, 0
    call createThread
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# record(a0 = report) on node 0: reports[report / 1000] = report. Several
# run at once, so the count goes up atomically.
record:
    li t0, 1000
    divu t1, a0, t0
    csrr t2, ntiles
    bltu t1, t2, 1f
    li t1, 0                    # a bad report lands on node 0's slot
1:  la t0, reports
    slli t1, t1, 2
    add t0, t0, t1
    sw a0, 0(t0)
    la t0, reports_seen
    li t1, 1
    amoadd.w zero, t1, (t0)
    ret

    .section .rodata
callback_text: .asciz "createThread with a callback"
no_callback_text: .asciz "createThread without a callback"
par_execute_text: .asciz "parExecute"
ok_text: .asciz ": ok\n"
    .bss
    .p2align 2
reports: .zero 4 * 1024
reports_seen: .zero 4
