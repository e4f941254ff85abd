# .symver writes a second name with the symbol's binding.
.text
.globl f
f: nop
.symver f, f@VERS_1
g: nop
.symver g, g@@VERS_2
