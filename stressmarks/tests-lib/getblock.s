# getblock.s: the test of getBlock, the same for both libraries up to the
# wait (each wrapper includes this body and am.s or sr.s, and defines
# GETBLOCK_SR for sr.s, whose getBlock takes a message id). Every node p of
# P (boot=all) owns `data`, data[i] = 1000p + i, reached through the global
# pointer `data_ptr` (thesis 3.4), and requests, with next = p+1 mod P and
# far = P-1-p:
#   1. 10 words from next at byte offset 8, into `got1` (one at a time: AM
#      blocking, SR waiting at once);
#   2. then two at the same time: 12 words from far, 3 apart, into `got2`,
#      2 apart; and 30 words from node 0 at byte offset 4 into `got3` (every
#      node asks node 0 at once: node 0 serves P requests together).
# Each node checks every word (and that the words between the strided ones
# kept their pattern); node 0 prints "ok" after a barrier. A wrong value
# prints FAIL and ends the run with exit code 1.

    .equ DATA_WORDS, 40
    .equ KIND_GET, 7            # SR message ids: kind 7, step = request, index = requester

    .include "check.s"
    .text
    .globl _start
_start:
    TEST_PROLOGUE
    la t0, data
    la t1, data_ptr
    sw t0, 0(t1)
    li t2, 1000
    mul t2, t2, s0
    li t3, 0
    li t4, DATA_WORDS
2:  add t5, t2, t3
    sw t5, 0(t0)
    addi t0, t0, 4
    addi t3, t3, 1
    blt t3, t4, 2b
    call SCMPBarrier            # every node's data is there
    # 1. one request
    mv a0, s2
    la a1, got1
    li a2, 1
    la a3, data_ptr
    li a4, 8
    li a5, 1
.ifdef GETBLOCK_SR
    li a6, (KIND_GET << SCMP_ID_KIND_SHIFT) | (1 << SCMP_ID_STEP_SHIFT)
    or a6, a6, s0
    li a7, 10
    call getBlock
    li a0, (KIND_GET << SCMP_ID_KIND_SHIFT) | (1 << SCMP_ID_STEP_SHIFT)
    or a0, a0, s0
    mv s4, a0
    call SCMPWaitReceive
    mv a0, s4
    call SCMPClearReceive
.else
    li a6, 10
    li a7, 0                    # blocking
    call getBlock
.endif
    mv a0, s2
    la a1, got1
    li a2, 1
    li a3, 2
    li a4, 10
    la a5, text1
    call check_words
    # 2. two at once
    mv a0, s3
    la a1, got2
    li a2, 2
    la a3, data_ptr
    li a4, 0
    li a5, 3
.ifdef GETBLOCK_SR
    li a6, (KIND_GET << SCMP_ID_KIND_SHIFT) | (2 << SCMP_ID_STEP_SHIFT)
    or a6, a6, s0
    li a7, 12
.else
    li a6, 12
    la a7, flag2
.endif
    call getBlock
    li a0, 0
    la a1, got3
    li a2, 1
    la a3, data_ptr
    li a4, 4
    li a5, 1
.ifdef GETBLOCK_SR
    li a6, (KIND_GET << SCMP_ID_KIND_SHIFT) | (3 << SCMP_ID_STEP_SHIFT)
    or a6, a6, s0
    li a7, 30
    call getBlock
    li s4, (KIND_GET << SCMP_ID_KIND_SHIFT) | (2 << SCMP_ID_STEP_SHIFT)
    or s4, s4, s0
    mv a0, s4
    call SCMPWaitReceive
    mv a0, s4
    call SCMPClearReceive
    li s4, (KIND_GET << SCMP_ID_KIND_SHIFT) | (3 << SCMP_ID_STEP_SHIFT)
    or s4, s4, s0
    mv a0, s4
    call SCMPWaitReceive
    mv a0, s4
    call SCMPClearReceive
.else
    li a6, 30
    la a7, flag3
    call getBlock
    la a0, flag2
    call amWaitFlag
    la a0, flag3
    call amWaitFlag
.endif
    mv a0, s3                   # got2[2i] = 1000 far + 3i
    la a1, got2
    li a2, 2
    li a3, 0
    li a4, 12
    li a5, 3
    la a6, text2
    call check_strided
    li a0, 0
    la a1, got3
    li a2, 1
    li a3, 1
    li a4, 30
    la a5, text3
    call check_words
    call SCMPBarrier
    bnez s0, 3f
    la a0, ok_text
    call print_str
3:  endt

    .section .rodata
text1: .asciz "getBlock from next"
text2: .asciz "getBlock from far, strided"
text3: .asciz "getBlock from node 0, every node at once"
ok_text: .asciz "getBlock: ok\n"
    .data
    .p2align 2
data_ptr: .word 0
flag2: .word 0
flag3: .word 0
got1: .fill 10, 4, CHECK_PATTERN
got2: .fill 24, 4, CHECK_PATTERN
got3: .fill 30, 4, CHECK_PATTERN
    .bss
    .p2align 2
data: .zero 4 * DATA_WORDS
