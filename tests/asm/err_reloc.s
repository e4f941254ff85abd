# `.reloc` in the executable `scmp asm` links itself (no linker reads it):
# an error, but R_RISCV_NONE, which asks nothing; type names are checked;
# the offset is a place in the current section, known where written.
    .data
other: .word 0
    .text
    .globl _start
_start:
    nop
    .reloc 0, R_RISCV_NONE, _start
    .reloc 0, R_RISCV_32, _start         #! `.reloc` is written for a linker
    .reloc 0, R_RISCV_NOEN               #! unrecognized relocation type
    .reloc other, R_RISCV_NONE           #! `.reloc` offset must be in the current section
    .reloc later, R_RISCV_NONE           #! the offset must be known at this point
later:
