# latency_am.s: what the active-messages library's routines cost on the
# 8x8 mesh (original NIU), to a neighbour (node 1, 1 hop) and to the far
# corner (node 63, 14 hops). Every node boots; barriers separate the
# measurements, and node 0 starts each one 400 cycles after the barrier, so
# that the partner, which left the barrier later, already waits. For each routine node 0 prints the cycles its call takes
# ("call"), and the receiver the cycles from node 0's call until it sees
# the data ("latency": the value, the flag after a block, or the thread's
# first instruction). Blocks are 64 words. Then the mean cycles of one
# SCMPBarrier, SCMPReduceSumInt and SCMPReduceSumDouble over 8 calls, seen
# by node 0. docs/libraries.md quotes these figures.
# run: mesh=8x8 boot=all niu=original trace-cycles=0..1

    .equ WORDS, 64
    .equ REPEAT, 8

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
    # sendDataIntValue: the value is node 0's start cycle
    call SCMPBarrier
    bnez s0, 1f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, mark
    mv a2, s2
    call sendDataIntValue
    csrr s3, cycle
    sub a1, s3, s2
    la a0, int_text
    call print_call
1:  bne s0, s1, 2f
    la a0, mark
    call wait_mark
    mv a1, a0
    la a0, int_text
    call print_latency
    # sendDataFloatValue: the value's high word is the start cycle
2:  call SCMPBarrier
    bnez s0, 3f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, mark_double
    fcvt.d.w fa0, zero
    fsd fa0, 0(sp)
    sw s2, 4(sp)
    fld fa0, 0(sp)
    call sendDataFloatValue
    csrr s3, cycle
    sub a1, s3, s2
    la a0, float_text
    call print_call
3:  bne s0, s1, 4f
    la a0, mark_double + 4
    call wait_mark
    mv a1, a0
    la a0, float_text
    call print_latency
    # sendDataBlock, then the flag (the start cycle); then sendDataBlockNB
4:  la a0, sendDataBlock
    la a1, block_text
    call measure_block
    la a0, sendDataBlockNB
    la a1, block_nb_text
    call measure_block
    # getBlock, blocking: the call is the whole round trip
8:  call SCMPBarrier
    bnez s0, 9f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, block
    li a2, 1
    la a3, block_ptr
    li a4, 0
    li a5, 1
    li a6, WORDS
    li a7, 0
    call getBlock
    csrr s3, cycle
    sub a1, s3, s2
    la a0, get_block_text
    call print_call
    # createThread: latency until the thread's first instruction
9:  call SCMPBarrier
    bnez s0, 10f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, thread_latency
    li a2, 0
    mv a3, s2
    call createThread
    csrr s3, cycle
    sub a1, s3, s2
    la a0, create_thread_text
    call print_call
10: li t0, 63
    beq s1, t0, 11f
    li s1, 63
    j partner
11: call SCMPBarrier            # the collectives, 8 calls each
    call time_collectives
    endt

# measure_block(a0 = sendDataBlock or sendDataBlockNB, a1 = its name): node
# 0 sends the block to the partner, then the flag holding its start cycle
measure_block:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s4, 8(sp)
    sw s5, 4(sp)
    mv s4, a0
    mv s5, a1
    call SCMPBarrier
    bnez s0, 1f
    call settle
    csrr s2, cycle
    mv a0, s1
    la a1, block
    li a2, 1
    la a3, block
    li a4, 1
    li a5, WORDS
    jalr s4
    csrr s3, cycle
    mv a0, s1
    la a1, mark
    mv a2, s2
    call sendDataIntValue
    sub a1, s3, s2
    mv a0, s5
    call print_call
1:  bne s0, s1, 2f
    la a0, mark
    call wait_mark
    mv a1, a0
    mv a0, s5
    call print_latency
2:  lw ra, 12(sp)
    lw s4, 8(sp)
    lw s5, 4(sp)
    addi sp, sp, 16
    ret

    .include "latency_common.s"

    .section .rodata
int_text: .asciz "sendDataIntValue"
float_text: .asciz "sendDataFloatValue"
block_text: .asciz "sendDataBlock (64 words) + flag"
block_nb_text: .asciz "sendDataBlockNB (64 words) + flag"
get_block_text: .asciz "getBlock (64 words, blocking)"
create_thread_text: .asciz "createThread"
    .text
    .include "../lib/am.s"
