	.file	"sum.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.section	.rodata
	.align	2
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
	.local	buffer
	.comm	buffer,16,4
	.globl	scale
	.section	.sdata,"aw"
	.align	3
	.type	scale, @object
	.size	scale, 8
scale:
	.word	0
	.word	1073217536
	.text
	.align	2
	.type	sys3, @function
sys3:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	sw	a2,-28(s0)
	sw	a3,-32(s0)
	lw	a0,-24(s0)
	lw	a1,-28(s0)
	lw	a2,-32(s0)
	lw	a7,-20(s0)
 #APP
# 12 "sum.c" 1
	ecall
# 0 "" 2
 #NO_APP
	mv	a5,a0
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	sys3, .-sys3
	.align	2
	.type	format, @function
format:
	addi	sp,sp,-64
	sw	s0,60(sp)
	addi	s0,sp,64
	sw	a0,-52(s0)
	sw	a1,-56(s0)
	sw	zero,-20(s0)
	sw	zero,-24(s0)
.L4:
	lw	a4,-52(s0)
	li	a5,10
	remu	a5,a4,a5
	andi	a4,a5,0xff
	lw	a5,-20(s0)
	addi	a3,a5,1
	sw	a3,-20(s0)
	addi	a4,a4,48
	andi	a4,a4,0xff
	addi	a5,a5,-16
	add	a5,a5,s0
	sb	a4,-20(a5)
	lw	a4,-52(s0)
	li	a5,10
	divu	a5,a4,a5
	sw	a5,-52(s0)
	lw	a5,-52(s0)
	bne	a5,zero,.L4
	j	.L5
.L6:
	lw	a5,-20(s0)
	addi	a5,a5,-1
	sw	a5,-20(s0)
	lw	a5,-24(s0)
	addi	a4,a5,1
	sw	a4,-24(s0)
	mv	a4,a5
	lw	a5,-56(s0)
	add	a5,a5,a4
	lw	a4,-20(s0)
	addi	a4,a4,-16
	add	a4,a4,s0
	lbu	a4,-20(a4)
	sb	a4,0(a5)
.L5:
	lw	a5,-20(s0)
	bne	a5,zero,.L6
	lw	a5,-24(s0)
	addi	a4,a5,1
	sw	a4,-24(s0)
	mv	a4,a5
	lw	a5,-56(s0)
	add	a5,a5,a4
	li	a4,10
	sb	a4,0(a5)
	lw	a5,-24(s0)
	mv	a0,a5
	lw	s0,60(sp)
	addi	sp,sp,64
	jr	ra
	.size	format, .-format
	.align	2
	.globl	sum
	.type	sum, @function
sum:
	addi	sp,sp,-48
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	sw	a1,-40(s0)
	sw	zero,-20(s0)
	sw	zero,-24(s0)
	j	.L9
.L10:
	lw	a5,-24(s0)
	slli	a5,a5,2
	lw	a4,-36(s0)
	add	a5,a4,a5
	lw	a5,0(a5)
	lw	a4,-20(s0)
	add	a5,a4,a5
	sw	a5,-20(s0)
	lw	a5,-24(s0)
	addi	a5,a5,1
	sw	a5,-24(s0)
.L9:
	lw	a4,-24(s0)
	lw	a5,-40(s0)
	blt	a4,a5,.L10
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,44(sp)
	addi	sp,sp,48
	jr	ra
	.size	sum, .-sum
	.align	2
	.globl	_start
	.type	_start, @function
_start:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	li	a1,10
	lui	a5,%hi(values)
	addi	a0,a5,%lo(values)
	call	sum
	sw	a0,-20(s0)
	lw	a5,-20(s0)
	fcvt.d.w	fa4,a5
	lui	a5,%hi(scale)
	fld	fa5,%lo(scale)(a5)
	fmul.d	fa5,fa4,fa5
	fcvt.w.d a5,fa5,rtz
	sw	a5,-20(s0)
	lw	a4,-20(s0)
	lui	a5,%hi(buffer)
	addi	a1,a5,%lo(buffer)
	mv	a0,a4
	call	format
	sw	a0,-24(s0)
	lui	a5,%hi(buffer)
	addi	a5,a5,%lo(buffer)
	lw	a3,-24(s0)
	mv	a2,a5
	li	a1,1
	li	a0,64
	call	sys3
	lw	a5,-20(s0)
	andi	a5,a5,255
	li	a3,0
	li	a2,0
	mv	a1,a5
	li	a0,93
	call	sys3
.L13:
	j	.L13
	.size	_start, .-_start
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
