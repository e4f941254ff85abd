# An endless loop stops at the configured cycle limit, never hangs.
# run: mesh=1x1 set=sim.max_cycles=200
    .text
    .globl _start
_start:
1:  addi t0, t0, 1
    j 1b
