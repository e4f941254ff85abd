# latency_sr.s: what the send-and-receive library's routines cost on the
# 8x8 mesh (modified NIU, Rendezvous unless said), to a neighbour (node 1,
# 1 hop) and to the far corner (node 63, 14 hops); latency_am.s measures
# the active-messages library the same way. Every node boots; barriers
# separate the measurements, the partner posts its receive before the
# barrier, and node 0 starts 400 cycles after it. Node 0 prints the cycles
# its call takes ("call"; for SCMPSend until the send is Complete, for
# getBlock including SCMPWaitReceive), the partner the cycles from node 0's
# call until its SCMPWaitReceive returns ("latency"; the first word carries
# node 0's start cycle), or, for a receive posted late, from its
# SCMPReceive (the RTS already there) until it returns. Blocks are 64 words.
# Then the mean cycles of one SCMPBarrier, SCMPReduceSumInt and
# SCMPReduceSumDouble over 8 calls, seen by node 0.
# run: mesh=8x8 boot=all niu=modified trace-cycles=0..1

    .equ WORDS, 64
    .equ REPEAT, 8

# a0 = the id of measurement \step
.macro ID rd, step
    li \rd, (1 << SCMP_ID_KIND_SHIFT) | (\step << SCMP_ID_STEP_SHIFT)
.endm

    .text
    .globl _start
_start:
    addi sp, sp, -16
    csrr s0, nodeid
    la t0, block_ptr
    la t1, block
    sw t1, 0(t0)
    li s1, 1                    # the partner: node 1, then node 63
partner:
    # 1. SCMPSendInt, the value is node 0's start cycle
    li a0, 1
    la a1, mark
    call post
    call SCMPBarrier
    bnez s0, 1f
    call settle
    csrr s2, cycle
    mv a0, s1
    ID a1, 1
    mv a2, s2
    call SCMPSendInt
    csrr s3, cycle
    li a0, 1
    la a1, int_text
    call finish_send
1:  li a0, 1
    la a1, mark
    la a2, int_text
    call finish_receive
    # 2. SCMPSendFloat, the high word is the start cycle
    li a0, 2
    la a1, mark_double
    call post
    call SCMPBarrier
    bnez s0, 2f
    call settle
    csrr s2, cycle
    sw zero, 0(sp)
    sw s2, 4(sp)
    fld fa0, 0(sp)
    mv a0, s1
    ID a1, 2
    call SCMPSendFloat
    csrr s3, cycle
    li a0, 2
    la a1, float_text
    call finish_send
2:  li a0, 2
    la a1, mark_double + 4
    la a2, float_text
    call finish_receive
    # 3. SCMPSend, blocking: the call lasts until the send is Complete
    li a0, 3
    la a1, block
    call post
    call SCMPBarrier
    bnez s0, 3f
    call settle
    csrr s2, cycle
    la t0, block
    sw s2, 0(t0)
    mv a0, s1
    ID a1, 3
    la a2, block
    li a3, 1
    li a4, WORDS
    call SCMPSend
    csrr s3, cycle
    li a0, 3
    la a1, send_text
    call finish_send
3:  li a0, 3
    la a1, block
    la a2, send_text
    call finish_receive
    # 4. SCMPSendNB
    li a0, 4
    la a1, block
    call post
    call SCMPBarrier
    bnez s0, 4f
    call settle
    csrr s2, cycle
    la t0, block
    sw s2, 0(t0)
    mv a0, s1
    ID a1, 4
    la a2, block
    li a3, 1
    li a4, WORDS
    call SCMPSendNB
    csrr s3, cycle
    li a0, 4
    la a1, send_nb_text
    call finish_send
4:  li a0, 4
    la a1, block
    la a2, send_nb_text
    call finish_receive
    # 5. SCMPSendInt in Ready mode
    li a0, SCMP_MODE_READY
    call SCMPSetMode
    li a0, 5
    la a1, mark
    call post
    call SCMPBarrier
    bnez s0, 5f
    call settle
    csrr s2, cycle
    mv a0, s1
    ID a1, 5
    mv a2, s2
    call SCMPSendInt
    csrr s3, cycle
    li a0, 5
    la a1, ready_text
    call finish_send
5:  li a0, 5
    la a1, mark
    la a2, ready_text
    call finish_receive
    li a0, SCMP_MODE_RENDEZVOUS
    call SCMPSetMode
    # 6. SCMPSendInt to a receive posted late: the partner waits 600 cycles,
    #    then SCMPReceive (the RTS is there) until it returns
    call SCMPBarrier
    bnez s0, 6f
    mv a0, s1
    ID a1, 6
    li a2, 1
    call SCMPSendInt
    ID a0, 6
    call SCMPWaitSend
    ID a0, 6
    call SCMPClearSend
6:  bne s0, s1, 7f
    csrr t0, cycle
    addi t0, t0, 600
61: csrr t1, cycle
    bltu t1, t0, 61b
    csrr s2, cycle
    ID a0, 6
    la a1, mark
    li a2, 1
    call SCMPReceive
    csrr t0, cycle
    sub a1, t0, s2
    la a0, late_text
    call print_latency
    ID a0, 6
    call SCMPClearReceive
    # 7. getBlock: the request, the data, until SCMPWaitReceive returns
7:  call SCMPBarrier
    bnez s0, 8f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, block
    li a2, 1
    la a3, block_ptr
    li a4, 0
    li a5, 1
    ID a6, 7
    li a7, WORDS
    call getBlock
    ID a0, 7
    call SCMPWaitReceive
    csrr t0, cycle
    sub a1, t0, s2
    la a0, get_block_text
    call print_call
    ID a0, 7
    call SCMPClearReceive
    # 8. createThread: latency until the thread's first instruction
8:  call SCMPBarrier
    bnez s0, 9f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, thread_latency
    li a2, 0
    mv a3, s2
    call createThread
    csrr t0, cycle
    sub a1, t0, s2
    la a0, create_thread_text
    call print_call
9:  li t0, 63
    beq s1, t0, 10f
    li s1, 63
    j partner
10: call SCMPBarrier            # the collectives, 8 calls each
    call time_collectives
    endt

# post(a0 = step, a1 = buffer): the partner posts the step's receive
post:
    bne s0, s1, 1f
    slli a0, a0, SCMP_ID_STEP_SHIFT
    li t0, 1 << SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    li a2, 1
    tail SCMPReceiveNB
1:  ret

# finish_send(a0 = step, a1 = routine): node 0 prints s3 - s2, waits for
# the send and clears it
finish_send:
    addi sp, sp, -16
    sw ra, 12(sp)
    slli a0, a0, SCMP_ID_STEP_SHIFT
    li t0, 1 << SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    sw a0, 8(sp)
    mv a0, a1
    sub a1, s3, s2
    call print_call
    lw a0, 8(sp)
    call SCMPWaitSend
    lw a0, 8(sp)
    call SCMPClearSend
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# finish_receive(a0 = step, a1 = the word holding the start cycle,
# a2 = routine): the partner waits for the receive, prints the latency,
# clears the receive
finish_receive:
    bne s0, s1, 1f
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a1, 4(sp)
    sw a2, 0(sp)
    slli a0, a0, SCMP_ID_STEP_SHIFT
    li t0, 1 << SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    sw a0, 8(sp)
    call SCMPWaitReceive
    csrr t0, cycle
    lw t1, 4(sp)
    lw t1, 0(t1)
    sub a1, t0, t1
    lw a0, 0(sp)
    call print_latency
    lw a0, 8(sp)
    call SCMPClearReceive
    lw ra, 12(sp)
    addi sp, sp, 16
1:  ret

    .include "latency_common.s"

    .section .rodata
int_text: .asciz "SCMPSendInt"
float_text: .asciz "SCMPSendFloat"
send_text: .asciz "SCMPSend (64 words)"
send_nb_text: .asciz "SCMPSendNB (64 words)"
ready_text: .asciz "SCMPSendInt in Ready mode"
late_text: .asciz "SCMPReceive posted after the RTS"
get_block_text: .asciz "getBlock (64 words) + SCMPWaitReceive"
create_thread_text: .asciz "createThread"
    .text
    .include "../lib/sr.s"
