# A symbol in a TLS section is a TLS symbol whatever its `.type`, as gcc
# writes them (`.type x, @object` on a `__thread` variable).
    .section .tdata,"awT",@progbits
    .globl calls
    .type calls, @object
    .size calls, 4
calls: .word 1
    .type f, @function
f: .word 2
    .section .tbss,"awT",@nobits
    .type zeroed, @object
zeroed: .zero 16
