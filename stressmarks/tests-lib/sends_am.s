# sends_am.s: the test of the active-messages library's sends (am.s,
# original NIU): every node p of P (boot=all) sends to next = p+1 mod P
#   sendDataIntValue   7p + 1 into `in_int`,
#   sendDataFloatValue p + 0.125 into `in_double`,
#   sendDataBlock      12 words of `src`, 3 apart, into `in_block`, 2 apart
#                      (the words between keep their pattern),
# and to far = P-1-p
#   sendDataBlockNB    40 words of `src2` (more than the 16-flit queue) into
#                      `in_nb`,
# then raises a flag on each (sendDataIntValue). The NB send comes first, and
# right after the blocking send returns the node overwrites both sources:
# what arrives must still be the original words. Each node waits for its
# two flags and checks everything; then node 0 prints "ok" after a barrier.
# A wrong value prints FAIL and ends the run with exit code 1.

    .equ BLOCK_WORDS, 12
    .equ NB_WORDS, 40
    .equ SOURCE_WORDS, 40       # at least 3 BLOCK_WORDS and NB_WORDS

    .include "check.s"
    .include "sends_check.s"
    .text
    .globl _start
_start:
    TEST_PROLOGUE
    la a0, src                  # src[i] = 1000p + i, src2[i] = 1000p + 500 + i
    la a1, src2
    li a2, SOURCE_WORDS
    call fill_sources
    mv a0, s3                   # NB first: to far
    la a1, in_nb
    li a2, 1
    la a3, src2
    li a4, 1
    li a5, NB_WORDS
    call sendDataBlockNB
    mv a0, s2
    la a1, in_int
    li a2, 7
    mul a2, a2, s0
    addi a2, a2, 1
    call sendDataIntValue
    mv a0, s2
    la a1, in_double
    fcvt.d.w fa0, s0
    la t0, eighth
    fld ft0, 0(t0)
    fadd.d fa0, fa0, ft0
    call sendDataFloatValue
    mv a0, s2
    la a1, in_block
    li a2, 2
    la a3, src
    li a4, 3
    li a5, BLOCK_WORDS
    call sendDataBlock
    la t0, src                  # both sources may change now
    la t1, src2
    li t3, SOURCE_WORDS
    li t2, -1
3:  sw t2, 0(t0)
    sw t2, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
    addi t3, t3, -1
    bnez t3, 3b
    mv a0, s2                   # the flags
    la a1, flag_next
    li a2, 1
    call sendDataIntValue
    mv a0, s3
    la a1, flag_far
    li a2, 1
    call sendDataIntValue
    la a0, flag_next
    call amWaitFlag
    la a0, flag_far
    call amWaitFlag
    mv a0, s4                   # from prev
    call check_int_and_double
    mv a0, s4                   # in_block[2i] = 1000 prev + 3i, the rest kept
    la a1, in_block
    li a2, 2
    li a3, 0
    li a4, BLOCK_WORDS
    li a5, 3
    la a6, block_text
    call check_strided
    mv a0, s3                   # in_nb[i] = 1000 (P-1-p) + 500 + i
    la a1, in_nb
    li a2, 1
    li a3, 500
    li a4, NB_WORDS
    la a5, nb_text
    call check_words
    call SCMPBarrier
    bnez s0, 7f
    la a0, ok_text
    call print_str
7:  endt

    .section .rodata
int_text: .asciz "sendDataIntValue"
double_text: .asciz "sendDataFloatValue"
block_text: .asciz "sendDataBlock"
nb_text: .asciz "sendDataBlockNB"
ok_text: .asciz "sendDataIntValue, sendDataFloatValue, sendDataBlock, sendDataBlockNB: ok\n"
    .data
    .p2align 3
in_double: .dword 0
in_int: .word 0
flag_next: .word 0
flag_far: .word 0
in_block: .fill 2 * BLOCK_WORDS, 4, CHECK_PATTERN
in_nb: .fill NB_WORDS, 4, CHECK_PATTERN
    .bss
    .p2align 2
src: .zero 4 * SOURCE_WORDS
src2: .zero 4 * SOURCE_WORDS
