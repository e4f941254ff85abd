# .p2align/.balign with a maximum of 0: no maximum (GNU as).
.text
nop
.p2align 3,,0
nop
.balign 16,0,0
.byte 1
