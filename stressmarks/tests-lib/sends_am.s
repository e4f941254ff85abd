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
    .equ PATTERN, 0x5a5a5a5a
    .equ SOURCE_WORDS, 40       # at least 3 BLOCK_WORDS and NB_WORDS

    .text
    .globl _start
_start:
    csrr s0, nodeid
    csrr s1, ntiles
    addi s2, s0, 1              # next
    bltu s2, s1, 1f
    li s2, 0
1:  sub s3, s1, s0              # far
    addi s3, s3, -1
    la t0, src                  # src[i] = 1000p + i, src2[i] = 1000p + 500 + i
    la t1, src2
    li t2, 1000
    mul t2, t2, s0
    li t3, 0
    li t4, SOURCE_WORDS
2:  add t5, t2, t3
    sw t5, 0(t0)
    addi t5, t5, 500
    sw t5, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
    addi t3, t3, 1
    blt t3, t4, 2b
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
    # from prev = p-1 mod P
    addi s4, s0, -1
    bgez s4, 4f
    addi s4, s1, -1
4:  lw a0, in_int
    li a1, 7
    mul a1, a1, s4
    addi a1, a1, 1
    la a2, int_text
    call check_int
    la t0, in_double
    fld fa0, 0(t0)
    fcvt.d.w fa1, s4
    la t0, eighth
    fld ft0, 0(t0)
    fadd.d fa1, fa1, ft0
    la a0, double_text
    call check_double
    li s5, 0                    # in_block[2i] = 1000 prev + 3i, the rest kept
    li s6, 1000
    mul s6, s6, s4
5:  la t0, in_block
    slli t1, s5, 3
    add t0, t0, t1
    lw a0, 0(t0)
    li t1, 3
    mul a1, s5, t1
    add a1, a1, s6
    la a2, block_text
    call check_int
    la t0, in_block
    slli t1, s5, 3
    add t0, t0, t1
    lw a0, 4(t0)
    li a1, PATTERN
    la a2, block_gap_text
    call check_int
    addi s5, s5, 1
    li t0, BLOCK_WORDS
    bltu s5, t0, 5b
    sub s4, s1, s0              # in_nb[i] = 1000 (P-1-p) + 500 + i
    addi s4, s4, -1
    li s6, 1000
    mul s6, s6, s4
    addi s6, s6, 500
    li s5, 0
6:  la t0, in_nb
    slli t1, s5, 2
    add t0, t0, t1
    lw a0, 0(t0)
    add a1, s6, s5
    la a2, nb_text
    call check_int
    addi s5, s5, 1
    li t0, NB_WORDS
    bltu s5, t0, 6b
    call SCMPBarrier
    bnez s0, 7f
    la a0, ok_text
    call print_str
7:  endt

    .section .rodata
    .p2align 3
eighth: .double 0.125
int_text: .asciz "sendDataIntValue"
double_text: .asciz "sendDataFloatValue"
block_text: .asciz "sendDataBlock"
block_gap_text: .asciz "sendDataBlock (between the strided words)"
nb_text: .asciz "sendDataBlockNB"
ok_text: .asciz "sendDataIntValue, sendDataFloatValue, sendDataBlock, sendDataBlockNB: ok\n"
    .data
    .p2align 3
in_double: .dword 0
in_int: .word 0
flag_next: .word 0
flag_far: .word 0
in_block: .fill 2 * BLOCK_WORDS, 4, PATTERN
in_nb: .fill NB_WORDS, 4, PATTERN
    .bss
    .p2align 2
src: .zero 4 * SOURCE_WORDS
src2: .zero 4 * SOURCE_WORDS
    .text
    .include "check.s"
