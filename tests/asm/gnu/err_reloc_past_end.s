# A `.reloc` offset past the section's end (GNU: "reloc not within (fixed
# part of) section").
.text
nop
.reloc 100, R_RISCV_NONE
