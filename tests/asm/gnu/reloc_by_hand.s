# `.reloc OFFSET, TYPE[, EXPR]`: offsets as numbers, `.` and labels; types
# by R_RISCV_ name and BFD_RELOC_ name; with a symbol and addend or none;
# in another section; and GNU's order: each `.reloc`, in the order written,
# before the first relocation of a higher offset still to come.
.text
.reloc 4, R_RISCV_NONE, m
call f
.reloc 0, R_RISCV_NONE, n
a: nop
.reloc a, R_RISCV_NONE
.reloc ., R_RISCV_32, y+4
.reloc a+4, BFD_RELOC_32, w
.align 3
call g
.reloc 0, R_RISCV_SET8, z-2
.data
.word 0
.reloc 0, R_RISCV_32, q
.reloc 4, BFD_RELOC_64, 12
