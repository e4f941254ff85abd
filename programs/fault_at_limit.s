# A fault one cycle before the cycle limit (issue 19, bug 1): tile 0 runs 20
# nops more than tile 1, whose zero word faults at cycle 15, and the limit is
# 16. The fault ends the run in every mode; the limit must not win because
# tile 0's run ahead was not yet confirmed.
# run: mesh=2x1 boot=all max-cycles=16
    .text
    .globl _start
_start:
    csrr t0, nodeid
    bnez t0, 1f
    .rept 20
    nop
    .endr
1:
    .rept 10
    nop
    .endr
    str s1, s4, s5          # s1 = s4 = s5 = 0 at boot
    nop
    .word 0                 # illegal: the fault
