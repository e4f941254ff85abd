# Subsections: a section is its subsections in number order (.text N,
# .data N, .subsection N, .previous back to the subsection before); labels,
# alignment (.balign 16 in subsection 2 pads at its final offset), branches
# (short across subsections of one section) and relocations where GNU as
# puts them.
.text
a: nop
.text 2
c: addi a0, a0, 2
.balign 16
d: nop
.text 1
b: j c
call d
.previous
e: nop
.subsection 1
f: nop
.subsection 0
g: beq a0, a1, f
.data 1
.word 1
.data
.word a, b, c, d, e, f, g
.bss
.zero 4
.section .rodata
.subsection 3
.string "three"
.subsection 0
.byte 0
.text 3
.p2align 3
h: bnez a0, a
.text
.size a, . - a
