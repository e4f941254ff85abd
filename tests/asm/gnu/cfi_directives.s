# Every `.cfi_*` directive GNU as 2.40 takes for RISC-V, and the places
# where it ends a fragment (an advance across one is a relocation).
	.cfi_sections .eh_frame, .debug_frame
	.text
	.globl f
	.type f, @function
f:
	.cfi_startproc
	addi sp, sp, -48
	.cfi_def_cfa_offset 48
	sw ra, 44(sp)
	sw s0, 40(sp)
	.cfi_offset ra, -4
	.cfi_rel_offset s0, 40
	addi s0, sp, 48
	.cfi_def_cfa s0, 0
	.cfi_def_cfa x8, -16
	.cfi_def_cfa_register fp
	.cfi_adjust_cfa_offset 16
	.cfi_adjust_cfa_offset -16
	fsd fs0, 32(sp)
	.cfi_offset fs0, -16
	.cfi_offset 70, -20
	.cfi_offset 9, 8
	.cfi_val_offset s2, -24
	.cfi_val_offset 19, 24
	.cfi_register ra, t0
	.cfi_undefined a0, a1, 12
	.cfi_same_value s3
	.cfi_escape 0x2e, 0x10
	.cfi_return_column ra
	lui a0, %hi(g)
	.cfi_remember_state
	lw a0, %lo(g)(a0)
	.cfi_restore ra, s0, fs0
	.cfi_restore 70
	call g
	.cfi_restore_state
	beq a0, a1, 1f
	.cfi_def_cfa_offset 64
	j 1f
	.cfi_def_cfa_offset 80
1:
	.rept 20
	nop
	.endr
	.cfi_def_cfa_offset 96
	.p2align 3
	.cfi_def_cfa_offset 112
	.rept 70
	nop
	.endr
	.cfi_def_cfa_offset 0
	la a0, g
	.rept 80
	nop
	.endr
	.cfi_def_cfa_offset 16
	.space 300
	.cfi_def_cfa_offset 32
	.fill 2, 4, 0x13
	.cfi_def_cfa_offset 48
	.org . + 8
	.cfi_def_cfa_offset 64
	tail g
	.cfi_def_cfa_offset 80
	li a0, 0x12345678
	.cfi_def_cfa_offset 96
	li a0, 100
	.cfi_def_cfa_offset 112
	.space 70000
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size f, .-f

# Another section, one procedure in a subsection, and a simple one.
	.section .text.two, "ax", @progbits
h:
	.cfi_startproc simple
	.cfi_def_cfa sp, 0
	nop
	.text 1
	.cfi_startproc
	nop
	.cfi_signal_frame
	addi sp, sp, -16
	.cfi_def_cfa_offset 16
	.cfi_endproc
	.text 0
	.cfi_startproc
	nop
	.cfi_endproc
	.section .text.two
	.cfi_window_save
	ret
	.cfi_endproc
