# `.cfi_*` without `.cfi_sections`: `.eh_frame` (CIE "zR", pc-relative FDE
# addresses), CIEs shared by procedures whose first instructions match.
	.text
a:
	.cfi_startproc
	addi sp, sp, -16
	.cfi_def_cfa_offset 16
	sw ra, 12(sp)
	.cfi_offset 1, -4
	call a
	lw ra, 12(sp)
	.cfi_restore 1
	addi sp, sp, 16
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
b:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset ra, -4
	nop
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
c:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset ra, -4
	nop
	ret
	.cfi_endproc
d:
	.cfi_startproc
	ret
	.cfi_endproc
	.cfi_sections .debug_frame
e:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	ret
	.cfi_endproc
