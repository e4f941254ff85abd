# Thread-local storage in an executable `scmp asm` links itself: tiles have
# no thread pointer, so each reference is an error at its operand (objects,
# `-c`, keep them as relocations for GNU ld). `%tprel_add` belongs in
# `add`'s fourth operand only.
    .globl _start
_start:
    lui a5, %tprel_hi(counter)           #! thread-local storage needs a thread pointer
    add a5, a5, tp, %tprel_add(counter)  #! thread-local storage needs a thread pointer
    lw a0, %tprel_lo(counter)(a5)        #! thread-local storage needs a thread pointer
    la.tls.ie a1, counter                #! thread-local storage needs a thread pointer
    addi a2, a2, %tprel_add(counter)     #! `%tprel_add` does not fit this operand
    .section .tbss,"awT",@nobits
counter: .zero 4
