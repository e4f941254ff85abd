# A run that ends (tile 1's exit, at cycle 13) while tile 0 switches to its
# second context (issue 19, found by the messaging fuzz target): the
# context switched to waits, Ready, until the switch is over, after the
# end; its waiting counts up to the end only (it showed 14 cycles of a
# 13-cycle run before).
# run: mesh=2x1 boot=all threads=2
    .text
    .globl _start
_start:
    csrr t0, nodeid
    csrr t1, ctxid
    bnez t1, 2f             # context 1: end at once when it runs
    bnez t0, 1f
    .rept 6
    nop
    .endr
    yield                   # tile 0, cycle 10: switch to context 1
2:  endt
1:  .rept 5
    nop
    .endr
    li a0, 0
    li a7, 93               # exit
    ecall
