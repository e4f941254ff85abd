# .set g, f copies f's type and size.
.text
.type f,@function
f: nop
.size f,4
.set g, f
.globl g
.data
.type o,@object
o: .word 1
.size o, 4
p = o
