# Writing the read-only cycle CSR is an illegal instruction.
# run: mesh=1x1
    .text
    .globl _start
_start:
    rdcycle a0
    csrw cycle, a0
    li a7, 93
    ecall
