# sends_sr.s: the test of the send-and-receive library's sends and receives
# (sr.s, modified NIU). Every node p of P (boot=all), with next = p+1 mod P,
# prev = p-1 mod P and far = P-1-p; message ids (kind, step 0, sender):
# 1. Rendezvous. Posts SCMPReceiveNB for kinds 1, 2 (from prev) and 4 (from
#    the node whose far it is), checks SCMPPollReceive says In Use (or RTS
#    Received, In Progress, Complete: the sender may be first), then sends
#      SCMPSendInt   7p + 1          to next (kind 1),
#      SCMPSendFloat p + 0.125       to next (kind 2),
#      SCMPSend      40 words of `src2` to far (kind 4, blocking),
#    checks SCMPPollSend says the float's send is Complete (a context's
#    messages leave in order), overwrites `src2`, and sends
#      SCMPSendNB    12 words of `src`, 3 apart, to next (kind 3),
#    whose receive next posts late, with SCMPReceive (blocking: the RTS waits
#    for it) into `in_block`, 2 apart. (Sending kind 3 before the blocking
#    send would deadlock the ring: it would hold back the send to far until
#    next posts, and next posts only once its own blocking send is done.)
#    SCMPWaitReceive waits for kind 1, a SCMPPollReceive loop for kind 2,
#    SCMPWaitReceive for kind 4; SCMPWaitSend for kind 3 before `src` is
#    overwritten. Values are checked, every entry waited for (SCMPWaitSend)
#    and cleared, and a poll of each then says Empty.
# 2. Ready mode (SCMPSetMode): posts a receive of kind 5 from prev, a barrier
#    makes sure all are posted, SCMPSendInt 100 + p to next, SCMPWaitReceive.
# Node 0 prints "ok" after a barrier. A wrong value prints FAIL and ends the
# run with exit code 1.

    .equ BLOCK_WORDS, 12
    .equ BIG_WORDS, 40
    .equ SOURCE_WORDS, 40

# s3 = the id of kind \kind from node \node
.macro MESSAGE_ID rd, kind, node
    li \rd, \kind << SCMP_ID_KIND_SHIFT
    or \rd, \rd, \node
.endm

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
    # 1. Rendezvous
    MESSAGE_ID a0, 1, s4
    la a1, in_int
    li a2, 1
    call SCMPReceiveNB
    MESSAGE_ID a0, 2, s4
    la a1, in_double
    li a2, 1
    call SCMPReceiveNB
    MESSAGE_ID a0, 4, s3        # far's far is p
    la a1, in_big
    li a2, 1
    call SCMPReceiveNB
    MESSAGE_ID a0, 1, s4
    call SCMPPollReceive
    li t0, SCMP_RECEIVE_EMPTY
    sltu a0, t0, a0             # anything but Empty
    li a1, 1
    la a2, poll_posted_text
    call check_int
    MESSAGE_ID a0, 1, s0
    call SCMPPollSend
    li a1, SCMP_SEND_EMPTY
    la a2, poll_unsent_text
    call check_int
    mv a0, s2
    MESSAGE_ID a1, 1, s0
    li a2, 7
    mul a2, a2, s0
    addi a2, a2, 1
    call SCMPSendInt
    mv a0, s2
    MESSAGE_ID a1, 2, s0
    fcvt.d.w fa0, s0
    la t0, eighth
    fld ft0, 0(t0)
    fadd.d fa0, fa0, ft0
    call SCMPSendFloat
    mv a0, s3
    MESSAGE_ID a1, 4, s0
    la a2, src2
    li a3, 1
    li a4, BIG_WORDS
    call SCMPSend
    MESSAGE_ID a0, 2, s0
    call SCMPPollSend
    li a1, SCMP_SEND_COMPLETE
    la a2, poll_sent_text
    call check_int
    la a0, src2
    call scribble
    mv a0, s2
    MESSAGE_ID a1, 3, s0
    la a2, src
    li a3, 3
    li a4, BLOCK_WORDS
    call SCMPSendNB
    MESSAGE_ID a0, 3, s4
    la a1, in_block
    li a2, 2
    call SCMPReceive
    MESSAGE_ID a0, 1, s4
    call SCMPWaitReceive
5:  MESSAGE_ID a0, 2, s4
    call SCMPPollReceive
    li t0, SCMP_RECEIVE_COMPLETE
    beq a0, t0, 6f
    yield
    j 5b
6:  MESSAGE_ID a0, 4, s3
    call SCMPWaitReceive
    MESSAGE_ID a0, 3, s0
    call SCMPWaitSend
    la a0, src
    call scribble
    mv a0, s4
    call check_int_and_double
    mv a0, s4                   # in_block[2i] = 1000 prev + 3i, the rest kept
    la a1, in_block
    li a2, 2
    li a3, 0
    li a4, BLOCK_WORDS
    li a5, 3
    la a6, block_text
    call check_strided
    mv a0, s3                   # in_big[i] = 1000 far + 500 + i
    la a1, in_big
    li a2, 1
    li a3, 500
    li a4, BIG_WORDS
    la a5, big_text
    call check_words
    li s5, 1                    # wait for and clear every entry, kinds 1..4
9:  MESSAGE_ID a0, 0, s0
    slli t0, s5, SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    mv s6, a0
    call SCMPWaitSend
    mv a0, s6
    call SCMPClearSend
    mv a0, s6
    call SCMPPollSend
    li a1, SCMP_SEND_EMPTY
    la a2, clear_send_text
    call check_int
    mv a0, s4                   # the receive from prev, or far for kind 4
    li t0, 4
    bne s5, t0, 10f
    mv a0, s3
10: slli t0, s5, SCMP_ID_KIND_SHIFT
    or a0, a0, t0
    mv s6, a0
    call SCMPClearReceive
    mv a0, s6
    call SCMPPollReceive
    li a1, SCMP_RECEIVE_EMPTY
    la a2, clear_receive_text
    call check_int
    addi s5, s5, 1
    li t0, 5
    bltu s5, t0, 9b
    # 2. Ready mode
    li a0, SCMP_MODE_READY
    call SCMPSetMode
    MESSAGE_ID a0, 5, s4
    la a1, in_int
    li a2, 1
    call SCMPReceiveNB
    call SCMPBarrier
    mv a0, s2
    MESSAGE_ID a1, 5, s0
    addi a2, s0, 100
    call SCMPSendInt
    MESSAGE_ID a0, 5, s4
    call SCMPWaitReceive
    lw a0, in_int
    addi a1, s4, 100
    la a2, ready_text
    call check_int
    MESSAGE_ID a0, 5, s4
    call SCMPClearReceive
    MESSAGE_ID a0, 5, s0
    call SCMPWaitSend
    MESSAGE_ID a0, 5, s0
    call SCMPClearSend
    li a0, SCMP_MODE_RENDEZVOUS
    call SCMPSetMode
    call SCMPBarrier
    bnez s0, 11f
    la a0, ok_text
    call print_str
11: endt

# scribble(a0 = a source): overwrites its SOURCE_WORDS words
scribble:
    li t0, SOURCE_WORDS
    li t1, -1
1:  sw t1, 0(a0)
    addi a0, a0, 4
    addi t0, t0, -1
    bnez t0, 1b
    ret

    .section .rodata
poll_posted_text: .asciz "SCMPPollReceive of a posted receive is not Empty"
poll_unsent_text: .asciz "SCMPPollSend before the send"
poll_sent_text: .asciz "SCMPPollSend of the earlier SCMPSendFloat once SCMPSend returned"
int_text: .asciz "SCMPSendInt"
double_text: .asciz "SCMPSendFloat"
block_text: .asciz "SCMPSendNB into SCMPReceive"
big_text: .asciz "SCMPSend"
clear_send_text: .asciz "SCMPPollSend after SCMPClearSend"
clear_receive_text: .asciz "SCMPPollReceive after SCMPClearReceive"
ready_text: .asciz "SCMPSendInt in Ready mode"
ok_text: .asciz "SCMPSendInt, SCMPSendFloat, SCMPSend, SCMPSendNB, SCMPPollSend, SCMPWaitSend, SCMPClearSend, SCMPReceive, SCMPReceiveNB, SCMPPollReceive, SCMPWaitReceive, SCMPClearReceive, SCMPSetMode: ok\n"
    .data
    .p2align 3
in_double: .dword 0
in_int: .word 0
in_block: .fill 2 * BLOCK_WORDS, 4, CHECK_PATTERN
in_big: .fill BIG_WORDS, 4, CHECK_PATTERN
    .bss
    .p2align 2
src: .zero 4 * SOURCE_WORDS
src2: .zero 4 * SOURCE_WORDS
