# Three contexts on one tile: context 0 computes in a long loop and is
# preempted when its quantum expires (the others are ready); context 1 yields
# after each step; context 2 runs a short loop and ends. Each prints when it
# finishes; the trace and statistics show the switches and waiting times.
# run: mesh=1x1 threads=3 set=scheduler.quantum=16
    .text
    .globl _start
_start:
    csrr s0, ctxid
    li t0, 1
    beq s0, t0, yielder
    li t0, 2
    beq s0, t0, short
    li t1, 40               # context 0: a long loop
1:  addi t1, t1, -1
    bnez t1, 1b
    j done
yielder:
    li t1, 4
1:  addi t1, t1, -1
    yield
    bnez t1, 1b
    j done
short:
    li t1, 3
1:  addi t1, t1, -1
    bnez t1, 1b
done:
    mv a0, s0
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt              # the run ends when all have ended
