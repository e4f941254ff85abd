# A code section ends padded to its alignment with nops when relaxation is
# off at the end of the file (zeros when on).
.section .init,"ax",@progbits
.option norelax
nop
.p2align 3
nop
