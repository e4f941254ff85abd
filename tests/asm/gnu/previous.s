# .previous after a switch to the current section, and after .bss (which
# GNU as's ELF .bss does not record as a section left).
.data
.word 1
.data
.word 2
.previous
.word 3
.text
nop
.bss
.previous
nop
.data
.word 4
.bss
.previous
.word 5
