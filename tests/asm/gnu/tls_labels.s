# Labels in TLS sections are TLS symbols.
.section .tbss,"awT",@nobits
t: .zero 4
.section .tdata,"awT",@progbits
u: .word 1
.section .tdata.v
v: .word 2
