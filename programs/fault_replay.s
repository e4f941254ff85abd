# A fault while another tile has run ahead (issue 19, bug 1): tile 0 runs 20
# nops more than tile 1, whose `str` keeps its NIU busy and whose zero word
# faults at cycle 15. The run ends at the fault's cycle in every mode: the
# statistics count what issued before it (tile 0: 15 instructions in 15
# cycles), whatever the epoch, the visiting order or lockstep.
# run: mesh=2x1 boot=all
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
