# Thread-local accesses (%tprel_*): the right operand only, and only in objects (scmp asm -c)
    .text
    .globl _start
_start:
    lui a5, %tprel_hi(v)                 #! needs a linker that lays out TLS
    add a5, a5, tp, %tprel_add(v)        #! needs a linker that lays out TLS
    lw a0, %tprel_lo(v)(a5)              #! needs a linker that lays out TLS
    add a5, a5, tp, %tprel_lo(v)         #! `add` takes 3 operand(s), found 4
    lui a5, %tprel_add(v)                #! `%tprel_add` does not fit this operand
    .section .tbss,"awT",@nobits
v:  .zero 4
