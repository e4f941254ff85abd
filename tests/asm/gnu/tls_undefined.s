# A symbol named only by thread-local operators (errno in picolibc's
# libc.a is a TLS definition) is a TLS symbol in the object: GNU ld refuses
# a NOTYPE reference to a TLS definition.
.text
lui a5, %tprel_hi(errno)
add a5, a5, tp, %tprel_add(errno)
lw a0, %tprel_lo(errno)(a5)
la.tls.ie a1, ev2
la.tls.gd a2, ev3
