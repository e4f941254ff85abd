# A procedure never closed (GNU: "open CFI at the end of file; missing
# .cfi_endproc directive").
	.text
f:
	.cfi_startproc
	ret
