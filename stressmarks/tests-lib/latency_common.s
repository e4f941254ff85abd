# latency_common.s: what latency_am.s and latency_sr.s share (included by
# them): waiting for a mark, printing a measurement, the thread whose start
# is measured, the timing of the collectives, and the marks and block. s0 = node, s1 = partner,
# s2 = node 0's start cycle.

    .equ LAT_PRINT_INT, 0x5c00
    .equ LAT_PRINT_CHAR, 0x5c02
    .equ LAT_PRINT_STRING, 0x5c03

# settle(): 400 cycles of nothing, for the partner to get ready
settle:
    csrr t0, cycle
    addi t0, t0, 400
1:  csrr t1, cycle
    bltu t1, t0, 1b
    ret

# wait_mark(a0 = word): waits until it is not 0, then a0 = the cycles since
# the value it holds (a start cycle), and clears it.
wait_mark:
1:  lw t0, 0(a0)
    bnez t0, 2f
    j 1b
2:  csrr t1, cycle
    sw zero, 0(a0)
    sub a0, t1, t0
    ret

# print_call(a0 = routine, a1 = cycles): node 0 prints
# "ROUTINE to node P: call N"
print_call:
    mv t2, a1
    mv t3, a0
    li a0, 0
    j print_measure

# print_latency(a0 = routine, a1 = cycles): the partner prints
# "ROUTINE to node P: latency N"
print_latency:
    mv t2, a1
    mv t3, a0
    li a0, 1
    # falls through
# print_measure(a0 = 0 call / 1 latency, t2 = cycles, t3 = routine)
print_measure:
    mv t4, a0
    mv a0, t3
    li a7, LAT_PRINT_STRING
    ecall
    la a0, to_node_text
    ecall
    mv a0, s1
    li a7, LAT_PRINT_INT
    ecall
    la a0, call_text
    beqz t4, 1f
    la a0, latency_text
1:  li a7, LAT_PRINT_STRING
    ecall
    mv a0, t2
    li a7, LAT_PRINT_INT
    ecall
    li a0, '\n'
    li a7, LAT_PRINT_CHAR
    ecall
    ret

# The thread createThread starts on the partner: a0 = node 0's start cycle.
thread_latency:
    csrr t0, cycle
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s1, 8(sp)
    sub a1, t0, a0
    csrr s1, nodeid
    la a0, create_thread_text
    call print_latency
    lw ra, 12(sp)
    lw s1, 8(sp)
    addi sp, sp, 16
    ret

# time_collectives(): times SCMPBarrier, SCMPReduceSumInt and
# SCMPReduceSumDouble (every node calls it)
time_collectives:
    addi sp, sp, -16
    sw ra, 12(sp)
    la a0, barrier_text
    la a1, SCMPBarrier
    call time_collective
    la a0, sum_int_text
    la a1, SCMPReduceSumInt
    call time_collective
    la a0, sum_double_text
    la a1, SCMPReduceSumDouble
    call time_collective
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# time_collective(a0 = label, a1 = routine): REPEAT calls; node 0 prints the
# mean cycles of one.
time_collective:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s3, 24(sp)
    sw s4, 20(sp)
    sw s5, 16(sp)
    sw s6, 12(sp)
    mv s3, a0
    mv s4, a1
    csrr s5, cycle
    li s6, REPEAT
1:  mv a0, s0
    fcvt.d.w fa0, s0
    jalr s4
    addi s6, s6, -1
    bnez s6, 1b
    csrr t0, cycle
    sub t0, t0, s5
    bnez s0, 2f
    mv a0, s3
    li a7, LAT_PRINT_STRING
    ecall
    la a0, mean_text
    ecall
    li t1, REPEAT
    divu a0, t0, t1
    li a7, LAT_PRINT_INT
    ecall
    li a0, '\n'
    li a7, LAT_PRINT_CHAR
    ecall
2:  lw ra, 28(sp)
    lw s3, 24(sp)
    lw s4, 20(sp)
    lw s5, 16(sp)
    lw s6, 12(sp)
    addi sp, sp, 32
    ret

    .data
    .p2align 3
mark_double: .dword 0
mark: .word 0
block_ptr: .word 0
    .bss
    .p2align 2
block: .zero 4 * WORDS
    .section .rodata
to_node_text: .asciz " to node "
call_text: .asciz ": call "
latency_text: .asciz ": latency "
mean_text: .asciz " on 64 nodes: cycles per call "
barrier_text: .asciz "SCMPBarrier"
sum_int_text: .asciz "SCMPReduceSumInt"
sum_double_text: .asciz "SCMPReduceSumDouble"
    .text
