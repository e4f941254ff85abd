# `.cfi_endproc` with no procedure open (GNU: ".cfi_endproc without
# corresponding .cfi_startproc").
	.text
	nop
	.cfi_endproc
