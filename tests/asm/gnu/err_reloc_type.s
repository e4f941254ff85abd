# A relocation type GNU as 2.40 does not know by name (GNU: "unrecognized
# reloc type"); numbers are refused too.
.text
nop
.reloc 0, R_RISCV_PLT32, x
