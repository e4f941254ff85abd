# A global .L name is written to the symbol table.
.text
.globl .Lx
.Lx: nop
.Ly: nop
call .Ly
