# a2a.s: the histogram exchange of Neighborhood's send-and-receive
# version alone, as a probe for Figure 6.1 (docs/chapter6.md, "Figure 6.1
# over 1..64 tiles"); not a stressmark, not checked by a model. Every node
# sends every other node one Rendezvous message of K sendm parts of L words
# (K = 2: Neighborhood's sum and difference sections, 6.2.1), node p+1
# first, from a local sender thread (sendh to itself), while the main
# thread, which posted all P-1 receives before it started the sender, finds
# each complete by polling (ldsr, yield; POLL=0: waitr) from node p-1 on,
# then waits for the sender. Each node prints the cycle it ended at; the
# run's figure is the largest. WORK: iterations of a busy loop the main
# thread runs before it polls. Up to 64 tiles.
#
#   scmp run docs/chapter6/thesis-text/a2a-probe/a2a.s --profile thesis --mesh 4x4 --boot all --niu modified \
#     --defsym K=2 --defsym L=64 --set niu.queue_flits=8 --set niu.full_queue=port
    .ifndef K
    .equ K, 2
    .endif
    .ifndef L
    .equ L, 64
    .endif
    .ifndef WORK
    .equ WORK, 0
    .endif
    .ifndef POLL
    .equ POLL, 1
    .endif
    .text
    .globl _start
_start:
    csrr s0, nodeid
    csrr s1, ntiles
    la t0, sbuf                 # fill the send buffer
    li t1, K * L
    mv t2, s0
1:  sw t2, 0(t0)
    addi t0, t0, 4
    addi t2, t2, 1
    addi t1, t1, -1
    bnez t1, 1b
    li s2, 1                    # post receives: id = sender, buffer by sender
2:  bgeu s2, s1, 3f
    sub t0, s0, s2
    bgez t0, 4f
    add t0, t0, s1
4:  li t1, K * L * 4
    mul t2, t0, t1
    la a2, rbuf
    add a2, a2, t2
    li a3, 1
    slli t0, t0, 8
    or t0, t0, s0
    str t0, a2, a3
    addi s2, s2, 1
    j 2b
3:  la t0, sender               # the local sender thread
    sendh s0, thread, t0
    sende zero
    .if WORK
    li t0, WORK
5:  addi t0, t0, -1
    bnez t0, 5b
    .endif
    li s2, 1                    # wait for each receive, from q-1, q-2, ...
6:  bgeu s2, s1, 9f
    sub t0, s0, s2
    bgez t0, 7f
    add t0, t0, s1
7:  slli t0, t0, 8
    or t0, t0, s0
    .if POLL
8:  ldsr t1, t0
    li t2, 7
    beq t1, t2, 10f
    yield
    j 8b
10:
    .else
    waitr t0
    .endif
    rmr t0
    addi s2, s2, 1
    j 6b
9:  lw t0, sent                 # and for the sender
    bnez t0, 11f
    yield
    j 9b
11: csrr a0, cycle
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
sender:
    csrr s0, nodeid
    csrr s1, ntiles
    li s2, 1
1:  bgeu s2, s1, 5f
    add a0, s0, s2
    bltu a0, s1, 2f
    sub a0, a0, s1
2:  slli t0, s0, 8
    or t0, t0, a0
    sendh a0, rdv, t0
    la t1, sbuf
    li t2, (1 << 16) | L
    li t3, K - 1
3:  beqz t3, 4f
    sendm t1, t2
    addi t1, t1, L * 4
    addi t3, t3, -1
    j 3b
4:  sendme t1, t2
    addi s2, s2, 1
    j 1b
5:  li s2, 1                    # every send Complete, removed
7:  bgeu s2, s1, 9f
    add a0, s0, s2
    bltu a0, s1, 8f
    sub a0, a0, s1
8:  slli t0, s0, 8
    or t0, t0, a0
6:  ldss t1, t0
    li t2, 3
    beq t1, t2, 10f
    yield
    j 6b
10: rms t0
    addi s2, s2, 1
    j 7b
9:  li t0, 1
    sw t0, sent, t1
    endt
    .bss
    .p2align 2
sent: .zero 4
sbuf: .zero 4 * K * L
rbuf: .zero 4 * K * L * 64
