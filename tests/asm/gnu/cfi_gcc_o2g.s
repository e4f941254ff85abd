# gcc 12 -O2 -g -march=rv32g -mabi=ilp32d output (as scmp cc runs it) of three functions:
# .cfi_sections .debug_frame, prologue/epilogue CFI, calls. Its `.attribute arch` is left
# out (GNU as adds the implied `zmmul1p0` to a given string, we keep it as written),
# and `.attribute unaligned_access, 0` (GNU writes no tag of value 0, we do).
	.file	"t.c"
	.option nopic
	.attribute stack_align, 16
	.text
.Ltext0:
	.cfi_sections	.debug_frame
	.file 0 "/tmp/cfi" "t.c"
	.align	2
	.globl	h
	.type	h, @function
h:
.LFB0:
	.file 1 "t.c"
	.loc 1 2 13
	.cfi_startproc
.LVL0:
	.loc 1 2 15
	.loc 1 2 26
.LBB3:
	.loc 1 2 30
	.loc 1 2 39
.LBE3:
	.loc 1 2 13 is_stmt 0
	addi	sp,sp,-80
	.cfi_def_cfa_offset 80
	sw	s0,72(sp)
	sw	s1,68(sp)
	sw	s2,64(sp)
	sw	s3,60(sp)
	sw	ra,76(sp)
	.cfi_offset 8, -8
	.cfi_offset 9, -12
	.cfi_offset 18, -16
	.cfi_offset 19, -20
	.cfi_offset 1, -4
	.loc 1 2 13
	mv	s3,a0
	mv	s1,a0
	addi	s0,sp,8
	addi	s2,sp,48
.LVL1:
.L2:
.LBB4:
	.loc 1 2 48 is_stmt 1 discriminator 3
	.loc 1 2 53 is_stmt 0 discriminator 3
	mv	a0,s1
	call	g
.LVL2:
	.loc 1 2 52 discriminator 3
	sw	a0,0(s0)
	.loc 1 2 44 is_stmt 1 discriminator 3
.LVL3:
	.loc 1 2 39 discriminator 3
	addi	s0,s0,4
	addi	s1,s1,1
.LVL4:
	bne	s0,s2,.L2
.LBE4:
	.loc 1 2 61 discriminator 4
	.loc 1 2 76 is_stmt 0 discriminator 4
	andi	s3,s3,7
.LVL5:
	.loc 1 2 74 discriminator 4
	slli	s3,s3,2
	addi	a5,s3,48
	add	s3,a5,sp
	.loc 1 2 72 discriminator 4
	lw	a0,-40(s3)
	lw	a5,20(sp)
	.loc 1 2 81 discriminator 4
	lw	ra,76(sp)
	.cfi_restore 1
	lw	s0,72(sp)
	.cfi_restore 8
	lw	s1,68(sp)
	.cfi_restore 9
.LVL6:
	lw	s2,64(sp)
	.cfi_restore 18
	lw	s3,60(sp)
	.cfi_restore 19
	add	a0,a0,a5
	addi	sp,sp,80
	.cfi_def_cfa_offset 0
	jr	ra
	.cfi_endproc
.LFE0:
	.size	h, .-h
	.align	2
	.globl	f
	.type	f, @function
f:
.LFB1:
	.loc 1 3 13 is_stmt 1
	.cfi_startproc
.LVL7:
	.loc 1 3 15
	.loc 1 3 13 is_stmt 0
	addi	sp,sp,-80
	.cfi_def_cfa_offset 80
	sw	s0,72(sp)
	sw	s1,68(sp)
	sw	s2,64(sp)
	sw	s3,60(sp)
	sw	ra,76(sp)
	.cfi_offset 8, -8
	.cfi_offset 9, -12
	.cfi_offset 18, -16
	.cfi_offset 19, -20
	.cfi_offset 1, -4
	.loc 1 3 13
	mv	s3,a0
.LVL8:
.LBB8:
.LBB9:
.LBB10:
	.loc 1 2 39 is_stmt 1
	mv	s1,a0
	addi	s0,sp,8
	addi	s2,sp,48
.LVL9:
.L7:
	.loc 1 2 48
	.loc 1 2 53 is_stmt 0
	mv	a0,s1
	call	g
.LVL10:
	.loc 1 2 52
	sw	a0,0(s0)
	.loc 1 2 44 is_stmt 1
.LVL11:
	.loc 1 2 39
	addi	s0,s0,4
	addi	s1,s1,1
.LVL12:
	bne	s0,s2,.L7
.LBE10:
	.loc 1 2 61
	.loc 1 2 76 is_stmt 0
	andi	s3,s3,7
.LVL13:
	.loc 1 2 74
	slli	s3,s3,2
	addi	a5,s3,48
	add	s3,a5,sp
	.loc 1 2 72
	lw	a0,-40(s3)
	lw	a5,20(sp)
.LBE9:
.LBE8:
	.loc 1 3 30
	lw	ra,76(sp)
	.cfi_restore 1
	lw	s0,72(sp)
	.cfi_restore 8
.LBB12:
.LBB11:
	.loc 1 2 72
	add	a0,a0,a5
.LVL14:
.LBE11:
.LBE12:
	.loc 1 3 30
	lw	s1,68(sp)
	.cfi_restore 9
	lw	s2,64(sp)
	.cfi_restore 18
	lw	s3,60(sp)
	.cfi_restore 19
	addi	a0,a0,1
	addi	sp,sp,80
	.cfi_def_cfa_offset 0
	jr	ra
	.cfi_endproc
.LFE1:
	.size	f, .-f
	.align	2
	.globl	dd
	.type	dd, @function
dd:
.LFB2:
	.loc 1 4 27 is_stmt 1
	.cfi_startproc
.LVL15:
	.loc 1 4 29
	.loc 1 4 41
.LBB13:
	.loc 1 4 45
	.loc 1 4 54
.LBE13:
	.loc 1 4 27 is_stmt 0
	addi	sp,sp,-48
	.cfi_def_cfa_offset 48
	sw	ra,44(sp)
	sw	s0,40(sp)
	sw	s1,36(sp)
	fsd	fs0,24(sp)
	fsd	fs1,16(sp)
	.cfi_offset 1, -4
	.cfi_offset 8, -8
	.cfi_offset 9, -12
	.cfi_offset 40, -24
	.cfi_offset 41, -32
	.loc 1 4 27
	fsd	fa0,8(sp)
.LBB14:
	.loc 1 4 54
	ble	a0,zero,.L13
	fmv.d	fs1,fa0
.LBE14:
	.loc 1 4 36
	fcvt.d.w	fs0,x0
	mv	s1,a0
.LBB15:
	.loc 1 4 49
	li	s0,0
.LVL16:
.L12:
	.loc 1 4 62 is_stmt 1 discriminator 3
	.loc 1 4 65 is_stmt 0 discriminator 3
	mv	a0,s0
	call	g
.LVL17:
	.loc 1 4 69 discriminator 3
	fcvt.d.w	fa5,a0
	.loc 1 4 58 discriminator 3
	addi	s0,s0,1
.LVL18:
	.loc 1 4 63 discriminator 3
	fmadd.d	fs0,fa5,fs1,fs0
.LVL19:
	.loc 1 4 58 is_stmt 1 discriminator 3
	.loc 1 4 54 discriminator 3
	bne	s1,s0,.L12
.LBE15:
	.loc 1 4 83 is_stmt 0
	lw	ra,44(sp)
	.cfi_remember_state
	.cfi_restore 1
	lw	s0,40(sp)
	.cfi_restore 8
.LVL20:
	fmv.d	fa0,fs0
	lw	s1,36(sp)
	.cfi_restore 9
.LVL21:
	fld	fs0,24(sp)
	.cfi_restore 40
.LVL22:
	fld	fs1,16(sp)
	.cfi_restore 41
.LVL23:
	addi	sp,sp,48
	.cfi_def_cfa_offset 0
.LVL24:
	jr	ra
.LVL25:
.L13:
	.cfi_restore_state
	.loc 1 4 36
	fcvt.d.w	fs0,x0
	.loc 1 4 73 is_stmt 1
	.loc 1 4 83 is_stmt 0
	lw	ra,44(sp)
	.cfi_restore 1
	lw	s0,40(sp)
	.cfi_restore 8
	fmv.d	fa0,fs0
.LVL26:
	lw	s1,36(sp)
	.cfi_restore 9
	fld	fs0,24(sp)
	.cfi_restore 40
	fld	fs1,16(sp)
	.cfi_restore 41
	addi	sp,sp,48
	.cfi_def_cfa_offset 0
.LVL27:
	jr	ra
	.cfi_endproc
.LFE2:
	.size	dd, .-dd
.Letext0:
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.4byte	0x1a3
	.2byte	0x5
	.byte	0x1
	.byte	0x4
	.4byte	.Ldebug_abbrev0
	.byte	0xc
	.4byte	.LASF4
	.byte	0x1d
	.4byte	.LASF0
	.4byte	.LASF1
	.4byte	.Ltext0
	.4byte	.Letext0-.Ltext0
	.4byte	.Ldebug_line0
	.byte	0xd
	.string	"g"
	.byte	0x1
	.byte	0x1
	.byte	0x5
	.4byte	0x3a
	.4byte	0x3a
	.byte	0xe
	.4byte	0x3a
	.byte	0
	.byte	0xf
	.byte	0x4
	.byte	0x5
	.string	"int"
	.byte	0x4
	.string	"dd"
	.byte	0x4
	.byte	0x8
	.4byte	0xa2
	.4byte	.LFB2
	.4byte	.LFE2-.LFB2
	.byte	0x1
	.byte	0x9c
	.4byte	0xa2
	.byte	0x1
	.string	"x"
	.byte	0x4
	.byte	0x12
	.4byte	0xa2
	.4byte	.LLST7
	.byte	0x1
	.string	"n"
	.byte	0x4
	.byte	0x19
	.4byte	0x3a
	.4byte	.LLST8
	.byte	0x5
	.string	"s"
	.byte	0x24
	.4byte	0xa2
	.4byte	.LLST9
	.byte	0x6
	.4byte	.LLRL10
	.byte	0x5
	.string	"i"
	.byte	0x31
	.4byte	0x3a
	.4byte	.LLST11
	.byte	0x2
	.4byte	.LVL17
	.4byte	0x26
	.byte	0x3
	.byte	0x1
	.byte	0x5a
	.byte	0x2
	.byte	0x78
	.byte	0
	.byte	0
	.byte	0
	.byte	0
	.byte	0x7
	.byte	0x8
	.byte	0x4
	.4byte	.LASF2
	.byte	0x4
	.string	"f"
	.byte	0x3
	.byte	0x5
	.4byte	0x3a
	.4byte	.LFB1
	.4byte	.LFE1-.LFB1
	.byte	0x1
	.byte	0x9c
	.4byte	0x11e
	.byte	0x1
	.string	"x"
	.byte	0x3
	.byte	0xb
	.4byte	0x3a
	.4byte	.LLST3
	.byte	0x10
	.4byte	0x11e
	.4byte	.LBB8
	.4byte	.LLRL4
	.byte	0x1
	.byte	0x3
	.byte	0x16
	.byte	0x8
	.4byte	0x12d
	.4byte	.LLST5
	.byte	0x6
	.4byte	.LLRL4
	.byte	0x9
	.4byte	0x137
	.byte	0x3
	.byte	0x91
	.byte	0xb8,0x7f
	.byte	0x11
	.4byte	0x13f
	.4byte	.LBB10
	.4byte	.LBE10-.LBB10
	.byte	0xa
	.4byte	0x140
	.4byte	.LLST6
	.byte	0x2
	.4byte	.LVL10
	.4byte	0x26
	.byte	0x3
	.byte	0x1
	.byte	0x5a
	.byte	0x2
	.byte	0x79
	.byte	0
	.byte	0
	.byte	0
	.byte	0
	.byte	0
	.byte	0
	.byte	0x12
	.string	"h"
	.byte	0x1
	.byte	0x2
	.byte	0x5
	.4byte	0x3a
	.byte	0x1
	.4byte	0x15a
	.byte	0x13
	.string	"x"
	.byte	0x1
	.byte	0x2
	.byte	0xb
	.4byte	0x3a
	.byte	0xb
	.string	"a"
	.byte	0x13
	.4byte	0x15a
	.byte	0x14
	.byte	0xb
	.string	"i"
	.byte	0x22
	.4byte	0x3a
	.byte	0x2
	.4byte	.LVL2
	.4byte	0x26
	.byte	0x3
	.byte	0x1
	.byte	0x5a
	.byte	0x2
	.byte	0x79
	.byte	0
	.byte	0
	.byte	0
	.byte	0
	.byte	0x15
	.4byte	0x3a
	.4byte	0x16a
	.byte	0x16
	.4byte	0x16a
	.byte	0x9
	.byte	0
	.byte	0x7
	.byte	0x4
	.byte	0x7
	.4byte	.LASF3
	.byte	0x17
	.4byte	0x11e
	.4byte	.LFB0
	.4byte	.LFE0-.LFB0
	.byte	0x1
	.byte	0x9c
	.byte	0x8
	.4byte	0x12d
	.4byte	.LLST0
	.byte	0x9
	.4byte	0x137
	.byte	0x3
	.byte	0x91
	.byte	0xb8,0x7f
	.byte	0x18
	.4byte	0x13f
	.4byte	.LLRL1
	.byte	0xa
	.4byte	0x140
	.4byte	.LLST2
	.byte	0
	.byte	0
	.byte	0
	.section	.debug_abbrev,"",@progbits
.Ldebug_abbrev0:
	.byte	0x1
	.byte	0x5
	.byte	0
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0x21
	.byte	0x1
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x2
	.byte	0x48
	.byte	0x1
	.byte	0x7d
	.byte	0x1
	.byte	0x7f
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x3
	.byte	0x49
	.byte	0
	.byte	0x2
	.byte	0x18
	.byte	0x7e
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0x4
	.byte	0x2e
	.byte	0x1
	.byte	0x3f
	.byte	0x19
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0x21
	.byte	0x1
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x27
	.byte	0x19
	.byte	0x49
	.byte	0x13
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x6
	.byte	0x40
	.byte	0x18
	.byte	0x7a
	.byte	0x19
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x5
	.byte	0x34
	.byte	0
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0x21
	.byte	0x1
	.byte	0x3b
	.byte	0x21
	.byte	0x4
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x6
	.byte	0xb
	.byte	0x1
	.byte	0x55
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x7
	.byte	0x24
	.byte	0
	.byte	0xb
	.byte	0xb
	.byte	0x3e
	.byte	0xb
	.byte	0x3
	.byte	0xe
	.byte	0
	.byte	0
	.byte	0x8
	.byte	0x5
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x9
	.byte	0x34
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0xa
	.byte	0x34
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0xb
	.byte	0x34
	.byte	0
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0x21
	.byte	0x1
	.byte	0x3b
	.byte	0x21
	.byte	0x2
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0xc
	.byte	0x11
	.byte	0x1
	.byte	0x25
	.byte	0xe
	.byte	0x13
	.byte	0xb
	.byte	0x3
	.byte	0x1f
	.byte	0x1b
	.byte	0x1f
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x6
	.byte	0x10
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0xd
	.byte	0x2e
	.byte	0x1
	.byte	0x3f
	.byte	0x19
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x27
	.byte	0x19
	.byte	0x49
	.byte	0x13
	.byte	0x3c
	.byte	0x19
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0xe
	.byte	0x5
	.byte	0
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0xf
	.byte	0x24
	.byte	0
	.byte	0xb
	.byte	0xb
	.byte	0x3e
	.byte	0xb
	.byte	0x3
	.byte	0x8
	.byte	0
	.byte	0
	.byte	0x10
	.byte	0x1d
	.byte	0x1
	.byte	0x31
	.byte	0x13
	.byte	0x52
	.byte	0x1
	.byte	0x55
	.byte	0x17
	.byte	0x58
	.byte	0xb
	.byte	0x59
	.byte	0xb
	.byte	0x57
	.byte	0xb
	.byte	0
	.byte	0
	.byte	0x11
	.byte	0xb
	.byte	0x1
	.byte	0x31
	.byte	0x13
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x6
	.byte	0
	.byte	0
	.byte	0x12
	.byte	0x2e
	.byte	0x1
	.byte	0x3f
	.byte	0x19
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x27
	.byte	0x19
	.byte	0x49
	.byte	0x13
	.byte	0x20
	.byte	0xb
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x13
	.byte	0x5
	.byte	0
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x14
	.byte	0xb
	.byte	0x1
	.byte	0
	.byte	0
	.byte	0x15
	.byte	0x1
	.byte	0x1
	.byte	0x49
	.byte	0x13
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x16
	.byte	0x21
	.byte	0
	.byte	0x49
	.byte	0x13
	.byte	0x2f
	.byte	0xb
	.byte	0
	.byte	0
	.byte	0x17
	.byte	0x2e
	.byte	0x1
	.byte	0x31
	.byte	0x13
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x6
	.byte	0x40
	.byte	0x18
	.byte	0x7a
	.byte	0x19
	.byte	0
	.byte	0
	.byte	0x18
	.byte	0xb
	.byte	0x1
	.byte	0x31
	.byte	0x13
	.byte	0x55
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0
	.section	.debug_loclists,"",@progbits
	.4byte	.Ldebug_loc3-.Ldebug_loc2
.Ldebug_loc2:
	.2byte	0x5
	.byte	0x4
	.byte	0
	.4byte	0
.Ldebug_loc0:
.LLST7:
	.byte	0x7
	.4byte	.LVL15
	.4byte	.LVL16
	.byte	0x2
	.byte	0x90
	.byte	0x2a
	.byte	0x7
	.4byte	.LVL16
	.4byte	.LVL23
	.byte	0x2
	.byte	0x90
	.byte	0x29
	.byte	0x7
	.4byte	.LVL23
	.4byte	.LVL24
	.byte	0x2
	.byte	0x91
	.byte	0x58
	.byte	0x7
	.4byte	.LVL24
	.4byte	.LVL25
	.byte	0x2
	.byte	0x72
	.byte	0x58
	.byte	0x7
	.4byte	.LVL25
	.4byte	.LVL26
	.byte	0x2
	.byte	0x90
	.byte	0x2a
	.byte	0x7
	.4byte	.LVL26
	.4byte	.LVL27
	.byte	0x2
	.byte	0x91
	.byte	0x58
	.byte	0x7
	.4byte	.LVL27
	.4byte	.LFE2
	.byte	0x2
	.byte	0x72
	.byte	0x58
	.byte	0
.LLST8:
	.byte	0x7
	.4byte	.LVL15
	.4byte	.LVL16
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL16
	.4byte	.LVL21
	.byte	0x1
	.byte	0x59
	.byte	0x7
	.4byte	.LVL21
	.4byte	.LVL25
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL25
	.4byte	.LFE2
	.byte	0x1
	.byte	0x5a
	.byte	0
.LLST9:
	.byte	0x7
	.4byte	.LVL15
	.4byte	.LVL16
	.byte	0xa
	.byte	0x9e
	.byte	0x8
	.4byte	0
	.4byte	0
	.byte	0x7
	.4byte	.LVL16
	.4byte	.LVL22
	.byte	0x2
	.byte	0x90
	.byte	0x28
	.byte	0x7
	.4byte	.LVL22
	.4byte	.LVL25
	.byte	0x2
	.byte	0x90
	.byte	0x2a
	.byte	0x7
	.4byte	.LVL25
	.4byte	.LFE2
	.byte	0xa
	.byte	0x9e
	.byte	0x8
	.4byte	0
	.4byte	0
	.byte	0
.LLST11:
	.byte	0x7
	.4byte	.LVL15
	.4byte	.LVL16
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL16
	.4byte	.LVL18
	.byte	0x1
	.byte	0x58
	.byte	0x7
	.4byte	.LVL18
	.4byte	.LVL19
	.byte	0x3
	.byte	0x78
	.byte	0x7f
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL19
	.4byte	.LVL20
	.byte	0x1
	.byte	0x58
	.byte	0x7
	.4byte	.LVL25
	.4byte	.LFE2
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LLST3:
	.byte	0x7
	.4byte	.LVL7
	.4byte	.LVL9
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL9
	.4byte	.LVL13
	.byte	0x1
	.byte	0x63
	.byte	0x7
	.4byte	.LVL13
	.4byte	.LFE1
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0
.LLST5:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL9
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL9
	.4byte	.LVL13
	.byte	0x1
	.byte	0x63
	.byte	0x7
	.4byte	.LVL13
	.4byte	.LVL14
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0
.LLST6:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL9
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL9
	.4byte	.LVL11
	.byte	0x6
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL11
	.4byte	.LVL12
	.byte	0x8
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x23
	.byte	0x1
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL12
	.4byte	.LVL13
	.byte	0x6
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL13
	.4byte	.LVL14
	.byte	0x7
	.byte	0x79
	.byte	0
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x1c
	.byte	0x9f
	.byte	0
.LLST0:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL1
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL1
	.4byte	.LVL5
	.byte	0x1
	.byte	0x63
	.byte	0x7
	.4byte	.LVL5
	.4byte	.LFE0
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0
.LLST2:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL1
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL1
	.4byte	.LVL3
	.byte	0x6
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL3
	.4byte	.LVL4
	.byte	0x8
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x23
	.byte	0x1
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL4
	.4byte	.LVL5
	.byte	0x6
	.byte	0x79
	.byte	0
	.byte	0x83
	.byte	0
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL5
	.4byte	.LVL6
	.byte	0x7
	.byte	0x79
	.byte	0
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x1c
	.byte	0x9f
	.byte	0
.Ldebug_loc3:
	.section	.debug_aranges,"",@progbits
	.4byte	0x1c
	.2byte	0x2
	.4byte	.Ldebug_info0
	.byte	0x4
	.byte	0
	.2byte	0
	.2byte	0
	.4byte	.Ltext0
	.4byte	.Letext0-.Ltext0
	.4byte	0
	.4byte	0
	.section	.debug_rnglists,"",@progbits
.Ldebug_ranges0:
	.4byte	.Ldebug_ranges3-.Ldebug_ranges2
.Ldebug_ranges2:
	.2byte	0x5
	.byte	0x4
	.byte	0
	.4byte	0
.LLRL1:
	.byte	0x6
	.4byte	.LBB3
	.4byte	.LBE3
	.byte	0x6
	.4byte	.LBB4
	.4byte	.LBE4
	.byte	0
.LLRL4:
	.byte	0x6
	.4byte	.LBB8
	.4byte	.LBE8
	.byte	0x6
	.4byte	.LBB12
	.4byte	.LBE12
	.byte	0
.LLRL10:
	.byte	0x6
	.4byte	.LBB13
	.4byte	.LBE13
	.byte	0x6
	.4byte	.LBB14
	.4byte	.LBE14
	.byte	0x6
	.4byte	.LBB15
	.4byte	.LBE15
	.byte	0
.Ldebug_ranges3:
	.section	.debug_line,"",@progbits
.Ldebug_line0:
	.section	.debug_str,"MS",@progbits,1
.LASF3:
	.string	"unsigned int"
.LASF2:
	.string	"double"
.LASF4:
	.string	"GNU C17 12.2.0 -mabi=ilp32d -misa-spec=20191213 -march=rv32imafd_zicsr_zifencei -g -O2"
	.section	.debug_line_str,"MS",@progbits,1
.LASF1:
	.string	"/tmp/cfi"
.LASF0:
	.string	"t.c"
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
