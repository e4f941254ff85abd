# collectives.s: the test of SCMPBarrier and the six reductions, the same
# for both libraries (each wrapper includes this body and am.s or sr.s and
# picks the mesh and the NIU). Every node runs it (boot=all).
#   1. Three rounds of each reduction over values that depend on the node
#      and the round (the rounds check that consecutive calls keep apart);
#      every node checks the result against the one it computes alone over
#      all nodes' values, and node 0 prints them.
#   2. The barrier: nodes arrive after different delays; the latest arrival
#      must come before the earliest departure (both found by reductions,
#      checked in part 1). Node 0 prints the spread of the arrivals, and
#      "ok" at the end.
# A wrong value prints FAIL and ends the run with exit code 1.

    .include "check.s"
    .text
    .globl _start
_start:
    csrr s0, nodeid
    csrr s1, ntiles
    li s2, 0                    # round
round:
    # sum of (q + 1) * (round + 1) over q
    addi a0, s0, 1
    addi t0, s2, 1
    mul a0, a0, t0
    call SCMPReduceSumInt
    mv s3, a0
    li t1, 0                    # expected, alone
    li t2, 0
1:  addi t3, t2, 1
    addi t0, s2, 1
    mul t3, t3, t0
    add t1, t1, t3
    addi t2, t2, 1
    bltu t2, s1, 1b
    mv a0, s3
    mv a1, t1
    la a2, sum_int_text
    call check_int
    la a0, sum_int_text
    mv a1, s3
    call report
    # min and max of ((7q + 3 round) mod 11) - 5 - round
    mv a0, s0
    call mixed_value
    call SCMPReduceMinInt
    mv s3, a0
    mv a0, s0
    call mixed_value
    call SCMPReduceMaxInt
    mv s4, a0
    li s5, 0x7fffffff           # expected min, max
    li s6, 0x80000000
    li s7, 0
2:  mv a0, s7
    call mixed_value
    bge a0, s5, 3f
    mv s5, a0
3:  ble a0, s6, 4f
    mv s6, a0
4:  addi s7, s7, 1
    bltu s7, s1, 2b
    mv a0, s3
    mv a1, s5
    la a2, min_int_text
    call check_int
    mv a0, s4
    mv a1, s6
    la a2, max_int_text
    call check_int
    la a0, min_int_text
    mv a1, s3
    call report
    la a0, max_int_text
    mv a1, s4
    call report
    # doubles: sum of q + 0.25 (round + 1) (exact in any order), min and
    # max of 1.5 (q - round) - 0.5 q^2
    mv a0, s0
    call double_value
    call SCMPReduceSumDouble
    fmv.d fs0, fa0
    mv a0, s0
    call double_value2
    call SCMPReduceMinDouble
    fmv.d fs1, fa0
    mv a0, s0
    call double_value2
    call SCMPReduceMaxDouble
    fmv.d fs2, fa0
    fcvt.d.w fs3, zero          # expected sum, min, max
    li s7, 0
    mv a0, s7
    call double_value2
    fmv.d fs4, fa0
    fmv.d fs5, fa0
5:  mv a0, s7
    call double_value
    fadd.d fs3, fs3, fa0
    mv a0, s7
    call double_value2
    fmin.d fs4, fs4, fa0
    fmax.d fs5, fs5, fa0
    addi s7, s7, 1
    bltu s7, s1, 5b
    fmv.d fa0, fs0
    fmv.d fa1, fs3
    la a0, sum_double_text
    call check_double
    fmv.d fa0, fs1
    fmv.d fa1, fs4
    la a0, min_double_text
    call check_double
    fmv.d fa0, fs2
    fmv.d fa1, fs5
    la a0, max_double_text
    call check_double
    la a0, sum_double_text
    fmv.d fa0, fs0
    call report_double
    la a0, min_double_text
    fmv.d fa0, fs1
    call report_double
    la a0, max_double_text
    fmv.d fa0, fs2
    call report_double
    addi s2, s2, 1
    li t0, 3
    bltu s2, t0, round
    # the barrier, after (37 q mod 11) * 25 cycles of work
    li t0, 37
    mul t0, s0, t0
    li t1, 11
    remu t0, t0, t1
    li t1, 25
    mul t0, t0, t1
    csrr t1, cycle
    add t1, t1, t0
6:  csrr t2, cycle
    bltu t2, t1, 6b
    csrr s3, cycle              # arrival
    call SCMPBarrier
    csrr s4, cycle              # departure
    mv a0, s3
    call SCMPReduceMaxInt
    mv s5, a0
    mv a0, s3
    call SCMPReduceMinInt
    mv s6, a0
    mv a0, s4
    call SCMPReduceMinInt
    mv s7, a0
    sltu a0, s7, s5             # 1 if a node left before the last came
    li a1, 0
    la a2, barrier_text
    call check_int
    la a0, barrier_spread_text
    sub a1, s5, s6
    call report
    bnez s0, 7f
    la a0, ok_text
    call print_str
7:  endt

# mixed_value(a0 = q) -> ((7q + 3 round) mod 11) - 5 - round (s2 = round)
mixed_value:
    li t0, 7
    mul a0, a0, t0
    li t0, 3
    mul t0, t0, s2
    add a0, a0, t0
    li t0, 11
    remu a0, a0, t0
    addi a0, a0, -5
    sub a0, a0, s2
    ret

# double_value(a0 = q) -> fa0 = q + 0.25 (round + 1)
double_value:
    fcvt.d.w fa0, a0
    addi t0, s2, 1
    fcvt.d.w ft0, t0
    la t1, quarter
    fld ft1, 0(t1)
    fmul.d ft0, ft0, ft1
    fadd.d fa0, fa0, ft0
    ret

# double_value2(a0 = q) -> fa0 = 1.5 (q - round) - 0.5 q^2
double_value2:
    sub t0, a0, s2
    fcvt.d.w fa0, t0
    la t1, quarter
    fld ft1, 8(t1)
    fmul.d fa0, fa0, ft1
    mul t0, a0, a0
    fcvt.d.w ft0, t0
    fld ft1, 16(t1)
    fmul.d ft0, ft0, ft1
    fsub.d fa0, fa0, ft0
    ret

# report(a0 = label, a1 = value): printed by node 0 only
report:
    bnez s0, 1f
    tail print_labeled
1:  ret

# report_double(a0 = label, fa0 = value): printed by node 0 only
report_double:
    bnez s0, 1f
    li a7, PRINT_STRING
    ecall
    li a0, ' '
    li a7, PRINT_CHAR
    ecall
    li a7, PRINT_DOUBLE
    ecall
    li a0, '\n'
    li a7, PRINT_CHAR
    ecall
1:  ret

    .section .rodata
    .p2align 3
quarter: .double 0.25, 1.5, 0.5
sum_int_text: .asciz "sum int"
min_int_text: .asciz "min int"
max_int_text: .asciz "max int"
sum_double_text: .asciz "sum double"
min_double_text: .asciz "min double"
max_double_text: .asciz "max double"
barrier_text: .asciz "barrier: a node left before the last arrived"
barrier_spread_text: .asciz "barrier arrivals spread over cycles"
ok_text: .asciz "SCMPBarrier, SCMPReduce{Sum,Min,Max}{Int,Double}: ok\n"
