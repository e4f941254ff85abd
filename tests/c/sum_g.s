	.file	"sum.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
.Ltext0:
	.cfi_sections	.debug_frame
	.file 0 "/work/main/tests/c" "sum.c"
	.align	2
	.globl	sum
	.type	sum, @function
sum:
.LFB2:
	.file 1 "sum.c"
	.loc 1 25 30
	.cfi_startproc
.LVL0:
	.loc 1 26 5
	.loc 1 27 5
.LBB2:
	.loc 1 27 10
	.loc 1 27 23
	ble	a1,zero,.L4
	mv	a5,a0
	slli	a1,a1,2
.LVL1:
	add	a3,a0,a1
.LBE2:
	.loc 1 26 9 is_stmt 0
	li	a0,0
.LVL2:
.L3:
.LBB3:
	.loc 1 27 33 is_stmt 1 discriminator 3
	.loc 1 27 35 is_stmt 0 discriminator 3
	lw	a4,0(a5)
	add	a0,a0,a4
.LVL3:
	.loc 1 27 29 is_stmt 1 discriminator 3
	.loc 1 27 23 discriminator 3
	addi	a5,a5,4
	bne	a5,a3,.L3
	ret
.LVL4:
.L4:
.LBE3:
	.loc 1 26 9 is_stmt 0
	li	a0,0
.LVL5:
	.loc 1 28 5 is_stmt 1
	.loc 1 29 1 is_stmt 0
	ret
	.cfi_endproc
.LFE2:
	.size	sum, .-sum
	.align	2
	.globl	_start
	.type	_start, @function
_start:
.LFB3:
	.loc 1 31 19 is_stmt 1
	.cfi_startproc
	addi	sp,sp,-32
	.cfi_def_cfa_offset 32
	sw	ra,28(sp)
	.cfi_offset 1, -4
	.loc 1 32 5
	.loc 1 32 13 is_stmt 0
	li	a1,10
	lui	a0,%hi(.LANCHOR0)
	addi	a0,a0,%lo(.LANCHOR0)
	call	sum
.LVL6:
	.loc 1 33 5 is_stmt 1
	.loc 1 33 17 is_stmt 0
	fcvt.d.w	fa5,a0
	lui	a5,%hi(scale)
	fld	fa4,%lo(scale)(a5)
	fmul.d	fa5,fa5,fa4
	.loc 1 33 7
	fcvt.w.d a6,fa5,rtz
.LVL7:
	.loc 1 34 5 is_stmt 1
	.loc 1 34 15 is_stmt 0
	mv	a4,a6
.LVL8:
.LBB10:
.LBB11:
	.loc 1 17 5 is_stmt 1
	.loc 1 18 5
	.loc 1 18 9 is_stmt 0
	li	a2,0
	.loc 1 19 29
	li	a1,10
	.loc 1 19 53
	li	a0,9
.LVL9:
.L7:
	.loc 1 19 5 is_stmt 1
	.loc 1 19 10
	.loc 1 19 15 is_stmt 0
	addi	a2,a2,1
.LVL10:
	addi	a5,sp,4
	add	a5,a5,a2
	.loc 1 19 29
	remu	a3,a4,a1
	.loc 1 19 25
	addi	a3,a3,48
	.loc 1 19 19
	sb	a3,-1(a5)
	.loc 1 19 35 is_stmt 1
	mv	a3,a4
	.loc 1 19 37 is_stmt 0
	divu	a4,a4,a1
.LVL11:
	.loc 1 19 53 is_stmt 1
	bgtu	a3,a0,.L7
	.loc 1 20 12
	beq	a2,zero,.L8
	lui	a4,%hi(.LANCHOR1)
.LVL12:
	addi	a4,a4,%lo(.LANCHOR1)
	addi	a1,sp,4
.LVL13:
.L9:
	.loc 1 20 15
	.loc 1 20 24 is_stmt 0
	lbu	a3,-1(a5)
	sb	a3,0(a4)
	.loc 1 20 12 is_stmt 1
	addi	a5,a5,-1
.LVL14:
	addi	a4,a4,1
.LVL15:
	bne	a5,a1,.L9
.LVL16:
.L8:
	.loc 1 21 5
	.loc 1 21 8 is_stmt 0
	lui	a1,%hi(.LANCHOR1)
	addi	a5,a1,%lo(.LANCHOR1)
	.loc 1 21 14
	add	a5,a5,a2
	li	a4,10
	sb	a4,0(a5)
	.loc 1 22 5 is_stmt 1
.LVL17:
.LBE11:
.LBE10:
	.loc 1 35 5
.LBB12:
.LBB13:
	.loc 1 8 5
	.loc 1 8 19 is_stmt 0
	li	a0,1
	.loc 1 9 5 is_stmt 1
	.loc 1 9 19 is_stmt 0
	addi	a1,a1,%lo(.LANCHOR1)
.LVL18:
	.loc 1 10 5 is_stmt 1
	.loc 1 10 19 is_stmt 0
	addi	a2,a2,1
.LVL19:
	.loc 1 11 5 is_stmt 1
	.loc 1 11 19 is_stmt 0
	li	a7,64
	.loc 1 12 5 is_stmt 1
 #APP
# 12 "sum.c" 1
	ecall
# 0 "" 2
	.loc 1 13 5
.LVL20:
 #NO_APP
.LBE13:
.LBE12:
	.loc 1 36 5
.LBB14:
.LBB15:
	.loc 1 8 5
.LBE15:
.LBE14:
	.loc 1 36 5 is_stmt 0
	andi	a0,a6,255
.LVL21:
.LBB17:
.LBB16:
	.loc 1 9 5 is_stmt 1
	.loc 1 9 19 is_stmt 0
	li	a1,0
	.loc 1 10 5 is_stmt 1
	.loc 1 10 19 is_stmt 0
	li	a2,0
.LVL22:
	.loc 1 11 5 is_stmt 1
	.loc 1 11 19 is_stmt 0
	li	a7,93
	.loc 1 12 5 is_stmt 1
 #APP
# 12 "sum.c" 1
	ecall
# 0 "" 2
.LVL23:
	.loc 1 13 5
 #NO_APP
.L10:
.LBE16:
.LBE17:
	.loc 1 37 5 discriminator 1
	.loc 1 37 15 discriminator 1
	.loc 1 37 5 discriminator 1
	j	.L10
	.cfi_endproc
.LFE3:
	.size	_start, .-_start
	.globl	scale
	.section	.rodata
	.align	2
	.set	.LANCHOR0,. + 0
	.type	values, @object
	.size	values, 40
values:
	.word	3
	.word	1
	.word	4
	.word	1
	.word	5
	.word	9
	.word	2
	.word	6
	.word	5
	.word	3
	.bss
	.align	2
	.set	.LANCHOR1,. + 0
	.type	buffer, @object
	.size	buffer, 16
buffer:
	.zero	16
	.section	.sdata,"aw"
	.align	3
	.type	scale, @object
	.size	scale, 8
scale:
	.word	0
	.word	1073217536
	.text
.Letext0:
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.4byte	0x2e8
	.2byte	0x5
	.byte	0x1
	.byte	0x4
	.4byte	.Ldebug_abbrev0
	.byte	0x12
	.4byte	.LASF10
	.byte	0x1d
	.4byte	.LASF0
	.4byte	.LASF1
	.4byte	.Ltext0
	.4byte	.Letext0-.Ltext0
	.4byte	.Ldebug_line0
	.byte	0x5
	.byte	0x4
	.byte	0x7
	.4byte	.LASF2
	.byte	0x7
	.4byte	0x49
	.4byte	0x3d
	.byte	0x8
	.4byte	0x26
	.byte	0x9
	.byte	0
	.byte	0x9
	.4byte	0x2d
	.byte	0x13
	.byte	0x4
	.byte	0x5
	.string	"int"
	.byte	0x9
	.4byte	0x42
	.byte	0xa
	.4byte	.LASF4
	.byte	0x3
	.byte	0x12
	.4byte	0x3d
	.byte	0x5
	.byte	0x3
	.4byte	values
	.byte	0x7
	.4byte	0x6f
	.4byte	0x6f
	.byte	0x8
	.4byte	0x26
	.byte	0xf
	.byte	0
	.byte	0x5
	.byte	0x1
	.byte	0x8
	.4byte	.LASF3
	.byte	0xa
	.4byte	.LASF5
	.byte	0x4
	.byte	0xd
	.4byte	0x5f
	.byte	0x5
	.byte	0x3
	.4byte	buffer
	.byte	0x14
	.4byte	.LASF11
	.byte	0x1
	.byte	0x5
	.byte	0x8
	.4byte	0x99
	.byte	0x5
	.byte	0x3
	.4byte	scale
	.byte	0x5
	.byte	0x8
	.byte	0x4
	.4byte	.LASF6
	.byte	0x15
	.4byte	.LASF12
	.byte	0x1
	.byte	0x1f
	.byte	0x6
	.4byte	.LFB3
	.4byte	.LFE3-.LFB3
	.byte	0x1
	.byte	0x9c
	.4byte	0x1da
	.byte	0x6
	.string	"s"
	.byte	0x20
	.byte	0x9
	.4byte	0x42
	.4byte	.LLST5
	.byte	0x6
	.string	"len"
	.byte	0x22
	.byte	0x9
	.4byte	0x42
	.4byte	.LLST6
	.byte	0xb
	.4byte	0x232
	.4byte	.LBB10
	.4byte	.LBE10-.LBB10
	.byte	0x22
	.byte	0xf
	.4byte	0x112
	.byte	0x1
	.4byte	0x24a
	.4byte	.LLST7
	.byte	0x1
	.4byte	0x241
	.4byte	.LLST8
	.byte	0x2
	.4byte	0x255
	.byte	0x2
	.byte	0x91
	.byte	0x64
	.byte	0xc
	.4byte	0x260
	.4byte	.LLST9
	.byte	0xc
	.4byte	0x269
	.4byte	.LLST10
	.byte	0
	.byte	0xb
	.4byte	0x288
	.4byte	.LBB12
	.4byte	.LBE12-.LBB12
	.byte	0x23
	.byte	0x5
	.4byte	0x166
	.byte	0x1
	.4byte	0x2b2
	.4byte	.LLST11
	.byte	0x1
	.4byte	0x2a9
	.4byte	.LLST12
	.byte	0x1
	.4byte	0x2a0
	.4byte	.LLST13
	.byte	0x1
	.4byte	0x297
	.4byte	.LLST14
	.byte	0x2
	.4byte	0x2bb
	.byte	0x1
	.byte	0x5a
	.byte	0x2
	.4byte	0x2c5
	.byte	0x1
	.byte	0x5b
	.byte	0x2
	.4byte	0x2cf
	.byte	0x1
	.byte	0x5c
	.byte	0x2
	.4byte	0x2d9
	.byte	0x1
	.byte	0x61
	.byte	0
	.byte	0x16
	.4byte	0x288
	.4byte	.LBB14
	.4byte	.LLRL15
	.byte	0x1
	.byte	0x24
	.byte	0x5
	.4byte	0x1c1
	.byte	0x1
	.4byte	0x2b2
	.4byte	.LLST16
	.byte	0x1
	.4byte	0x2a9
	.4byte	.LLST16
	.byte	0x1
	.4byte	0x2a0
	.4byte	.LLST18
	.byte	0x1
	.4byte	0x297
	.4byte	.LLST19
	.byte	0xd
	.4byte	.LLRL15
	.byte	0x2
	.4byte	0x2bb
	.byte	0x1
	.byte	0x5a
	.byte	0x2
	.4byte	0x2c5
	.byte	0x1
	.byte	0x5b
	.byte	0x2
	.4byte	0x2cf
	.byte	0x1
	.byte	0x5c
	.byte	0x2
	.4byte	0x2d9
	.byte	0x1
	.byte	0x61
	.byte	0
	.byte	0
	.byte	0x17
	.4byte	.LVL6
	.4byte	0x1da
	.byte	0xe
	.byte	0x1
	.byte	0x5a
	.byte	0x5
	.byte	0x3
	.4byte	.LANCHOR0
	.byte	0xe
	.byte	0x1
	.byte	0x5b
	.byte	0x1
	.byte	0x3a
	.byte	0
	.byte	0
	.byte	0x18
	.string	"sum"
	.byte	0x1
	.byte	0x19
	.byte	0x5
	.4byte	0x42
	.4byte	.LFB2
	.4byte	.LFE2-.LFB2
	.byte	0x1
	.byte	0x9c
	.4byte	0x22d
	.byte	0xf
	.string	"p"
	.byte	0x14
	.4byte	0x22d
	.4byte	.LLST0
	.byte	0xf
	.string	"n"
	.byte	0x1b
	.4byte	0x42
	.4byte	.LLST1
	.byte	0x6
	.string	"s"
	.byte	0x1a
	.byte	0x9
	.4byte	0x42
	.4byte	.LLST2
	.byte	0xd
	.4byte	.LLRL3
	.byte	0x6
	.string	"i"
	.byte	0x1b
	.byte	0xe
	.4byte	0x42
	.4byte	.LLST4
	.byte	0
	.byte	0
	.byte	0x10
	.4byte	0x49
	.byte	0x11
	.4byte	.LASF7
	.byte	0x10
	.byte	0xc
	.4byte	0x42
	.4byte	0x273
	.byte	0x4
	.string	"v"
	.byte	0x10
	.byte	0x1c
	.4byte	0x26
	.byte	0x4
	.string	"out"
	.byte	0x10
	.byte	0x25
	.4byte	0x273
	.byte	0x3
	.string	"tmp"
	.byte	0x11
	.byte	0xa
	.4byte	0x278
	.byte	0x3
	.string	"n"
	.byte	0x12
	.byte	0x9
	.4byte	0x42
	.byte	0x3
	.string	"i"
	.byte	0x12
	.byte	0x10
	.4byte	0x42
	.byte	0
	.byte	0x10
	.4byte	0x6f
	.byte	0x7
	.4byte	0x6f
	.4byte	0x288
	.byte	0x8
	.4byte	0x26
	.byte	0xb
	.byte	0
	.byte	0x11
	.4byte	.LASF8
	.byte	0x7
	.byte	0xd
	.4byte	0x2e4
	.4byte	0x2e4
	.byte	0x4
	.string	"n"
	.byte	0x7
	.byte	0x17
	.4byte	0x2e4
	.byte	0x4
	.string	"a"
	.byte	0x7
	.byte	0x1f
	.4byte	0x2e4
	.byte	0x4
	.string	"b"
	.byte	0x7
	.byte	0x27
	.4byte	0x2e4
	.byte	0x4
	.string	"c"
	.byte	0x7
	.byte	0x2f
	.4byte	0x2e4
	.byte	0x3
	.string	"a0"
	.byte	0x8
	.byte	0x13
	.4byte	0x2e4
	.byte	0x3
	.string	"a1"
	.byte	0x9
	.byte	0x13
	.4byte	0x2e4
	.byte	0x3
	.string	"a2"
	.byte	0xa
	.byte	0x13
	.4byte	0x2e4
	.byte	0x3
	.string	"a7"
	.byte	0xb
	.byte	0x13
	.4byte	0x2e4
	.byte	0
	.byte	0x5
	.byte	0x4
	.byte	0x5
	.4byte	.LASF9
	.byte	0
	.section	.debug_abbrev,"",@progbits
.Ldebug_abbrev0:
	.byte	0x1
	.byte	0x5
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x2
	.byte	0x34
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0x3
	.byte	0x34
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
	.byte	0
	.byte	0
	.byte	0x4
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
	.byte	0
	.byte	0
	.byte	0x5
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
	.byte	0x6
	.byte	0x34
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
	.byte	0x7
	.byte	0x1
	.byte	0x1
	.byte	0x49
	.byte	0x13
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x8
	.byte	0x21
	.byte	0
	.byte	0x49
	.byte	0x13
	.byte	0x2f
	.byte	0xb
	.byte	0
	.byte	0
	.byte	0x9
	.byte	0x26
	.byte	0
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0xa
	.byte	0x34
	.byte	0
	.byte	0x3
	.byte	0xe
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
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0xb
	.byte	0x1d
	.byte	0x1
	.byte	0x31
	.byte	0x13
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x6
	.byte	0x58
	.byte	0x21
	.byte	0x1
	.byte	0x59
	.byte	0xb
	.byte	0x57
	.byte	0xb
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0xc
	.byte	0x34
	.byte	0
	.byte	0x31
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0xd
	.byte	0xb
	.byte	0x1
	.byte	0x55
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0xe
	.byte	0x49
	.byte	0
	.byte	0x2
	.byte	0x18
	.byte	0x7e
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0xf
	.byte	0x5
	.byte	0
	.byte	0x3
	.byte	0x8
	.byte	0x3a
	.byte	0x21
	.byte	0x1
	.byte	0x3b
	.byte	0x21
	.byte	0x19
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0x2
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x10
	.byte	0xf
	.byte	0
	.byte	0xb
	.byte	0x21
	.byte	0x4
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x11
	.byte	0x2e
	.byte	0x1
	.byte	0x3
	.byte	0xe
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
	.byte	0x20
	.byte	0x21
	.byte	0x1
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x12
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
	.byte	0x13
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
	.byte	0x14
	.byte	0x34
	.byte	0
	.byte	0x3
	.byte	0xe
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0x3f
	.byte	0x19
	.byte	0x2
	.byte	0x18
	.byte	0
	.byte	0
	.byte	0x15
	.byte	0x2e
	.byte	0x1
	.byte	0x3f
	.byte	0x19
	.byte	0x3
	.byte	0xe
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x27
	.byte	0x19
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
	.byte	0x16
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
	.byte	0x1
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x17
	.byte	0x48
	.byte	0x1
	.byte	0x7d
	.byte	0x1
	.byte	0x7f
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x18
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
	.byte	0
	.section	.debug_loclists,"",@progbits
	.4byte	.Ldebug_loc3-.Ldebug_loc2
.Ldebug_loc2:
	.2byte	0x5
	.byte	0x4
	.byte	0
	.4byte	0
.Ldebug_loc0:
.LLST5:
	.byte	0x7
	.4byte	.LVL6
	.4byte	.LVL7
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL7
	.4byte	.LFE3
	.byte	0x1
	.byte	0x60
	.byte	0
.LLST6:
	.byte	0x7
	.4byte	.LVL17
	.4byte	.LVL19
	.byte	0x3
	.byte	0x7c
	.byte	0x1
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL19
	.4byte	.LVL22
	.byte	0x1
	.byte	0x5c
	.byte	0
.LLST7:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL17
	.byte	0x6
	.byte	0x3
	.4byte	buffer
	.byte	0x9f
	.byte	0
.LLST8:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL9
	.byte	0x1
	.byte	0x60
	.byte	0x7
	.4byte	.LVL9
	.4byte	.LVL12
	.byte	0x1
	.byte	0x5e
	.byte	0x7
	.4byte	.LVL12
	.4byte	.LVL13
	.byte	0xc
	.byte	0x7d
	.byte	0
	.byte	0xa8
	.byte	0x26
	.byte	0x7b
	.byte	0
	.byte	0xa8
	.byte	0x26
	.byte	0x1b
	.byte	0xa8
	.byte	0
	.byte	0x9f
	.byte	0
.LLST9:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL9
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL9
	.4byte	.LVL13
	.byte	0x1
	.byte	0x5c
	.byte	0x7
	.4byte	.LVL13
	.4byte	.LVL14
	.byte	0x8
	.byte	0x7f
	.byte	0
	.byte	0x91
	.byte	0
	.byte	0x1c
	.byte	0x23
	.byte	0x1b
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL14
	.4byte	.LVL16
	.byte	0x8
	.byte	0x7f
	.byte	0
	.byte	0x91
	.byte	0
	.byte	0x1c
	.byte	0x23
	.byte	0x1c
	.byte	0x9f
	.byte	0
.LLST10:
	.byte	0x7
	.4byte	.LVL8
	.4byte	.LVL13
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL13
	.4byte	.LVL15
	.byte	0x9
	.byte	0x7e
	.byte	0
	.byte	0x3
	.4byte	buffer-1
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL15
	.4byte	.LVL16
	.byte	0x9
	.byte	0x7e
	.byte	0
	.byte	0x3
	.4byte	buffer
	.byte	0x1c
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL16
	.4byte	.LVL17
	.byte	0x3
	.byte	0x7c
	.byte	0x1
	.byte	0x9f
	.byte	0
.LLST11:
	.byte	0x7
	.4byte	.LVL17
	.4byte	.LVL19
	.byte	0x3
	.byte	0x7c
	.byte	0x1
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL19
	.4byte	.LVL20
	.byte	0x1
	.byte	0x5c
	.byte	0
.LLST12:
	.byte	0x7
	.4byte	.LVL17
	.4byte	.LVL18
	.byte	0x6
	.byte	0x3
	.4byte	.LANCHOR1
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL18
	.4byte	.LVL20
	.byte	0x1
	.byte	0x5b
	.byte	0
.LLST13:
	.byte	0x7
	.4byte	.LVL17
	.4byte	.LVL20
	.byte	0x2
	.byte	0x31
	.byte	0x9f
	.byte	0
.LLST14:
	.byte	0x7
	.4byte	.LVL17
	.4byte	.LVL20
	.byte	0x3
	.byte	0x8
	.byte	0x40
	.byte	0x9f
	.byte	0
.LLST16:
	.byte	0x7
	.4byte	.LVL20
	.4byte	.LVL23
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LLST18:
	.byte	0x7
	.4byte	.LVL20
	.4byte	.LVL21
	.byte	0x6
	.byte	0x80
	.byte	0
	.byte	0x8
	.byte	0xff
	.byte	0x1a
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL21
	.4byte	.LVL23
	.byte	0x1
	.byte	0x5a
	.byte	0
.LLST19:
	.byte	0x7
	.4byte	.LVL20
	.4byte	.LVL23
	.byte	0x3
	.byte	0x8
	.byte	0x5d
	.byte	0x9f
	.byte	0
.LLST0:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL2
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL2
	.4byte	.LVL4
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL4
	.4byte	.LVL5
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL5
	.4byte	.LFE2
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5a
	.byte	0x9f
	.byte	0
.LLST1:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL1
	.byte	0x1
	.byte	0x5b
	.byte	0x7
	.4byte	.LVL1
	.4byte	.LVL4
	.byte	0x4
	.byte	0xa3
	.byte	0x1
	.byte	0x5b
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL4
	.4byte	.LFE2
	.byte	0x1
	.byte	0x5b
	.byte	0
.LLST2:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL2
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL2
	.4byte	.LVL4
	.byte	0x1
	.byte	0x5a
	.byte	0x7
	.4byte	.LVL4
	.4byte	.LFE2
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LLST4:
	.byte	0x7
	.4byte	.LVL0
	.4byte	.LVL2
	.byte	0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x7
	.4byte	.LVL4
	.4byte	.LFE2
	.byte	0x2
	.byte	0x30
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
.LLRL3:
	.byte	0x6
	.4byte	.LBB2
	.4byte	.LBE2
	.byte	0x6
	.4byte	.LBB3
	.4byte	.LBE3
	.byte	0
.LLRL15:
	.byte	0x6
	.4byte	.LBB14
	.4byte	.LBE14
	.byte	0x6
	.4byte	.LBB17
	.4byte	.LBE17
	.byte	0
.Ldebug_ranges3:
	.section	.debug_line,"",@progbits
.Ldebug_line0:
	.section	.debug_str,"MS",@progbits,1
.LASF4:
	.string	"values"
.LASF2:
	.string	"unsigned int"
.LASF10:
	.string	"GNU C17 12.2.0 -mabi=ilp32d -misa-spec=20191213 -march=rv32imafd_zicsr_zifencei -g -O1 -ffreestanding"
.LASF3:
	.string	"char"
.LASF9:
	.string	"long int"
.LASF6:
	.string	"double"
.LASF7:
	.string	"format"
.LASF11:
	.string	"scale"
.LASF12:
	.string	"_start"
.LASF5:
	.string	"buffer"
.LASF8:
	.string	"sys3"
	.section	.debug_line_str,"MS",@progbits,1
.LASF0:
	.string	"sum.c"
.LASF1:
	.string	"/work/main/tests/c"
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
