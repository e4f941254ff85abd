# A CFI instruction outside a procedure (GNU: "CFI instruction used
# without previous .cfi_startproc"); a procedure is open in another section.
	.section .text.a, "ax", @progbits
	.cfi_startproc
	nop
	.text
	.cfi_def_cfa_offset 16
	.section .text.a
	.cfi_endproc
