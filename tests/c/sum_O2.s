	.file	"sum.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	2
	.globl	sum
	.type	sum, @function
sum:
	ble	a1,zero,.L4
	slli	a1,a1,2
	mv	a5,a0
	add	a3,a0,a1
	li	a0,0
.L3:
	lw	a4,0(a5)
	addi	a5,a5,4
	add	a0,a0,a4
	bne	a5,a3,.L3
	ret
.L4:
	li	a0,0
	ret
	.size	sum, .-sum
	.align	2
	.globl	_start
	.type	_start, @function
_start:
	lui	a5,%hi(.LANCHOR0)
	addi	a5,a5,%lo(.LANCHOR0)
	addi	sp,sp,-16
	addi	a2,a5,40
	li	a4,0
.L8:
	lw	a3,0(a5)
	addi	a5,a5,4
	add	a4,a4,a3
	bne	a5,a2,.L8
	lui	a5,%hi(scale)
	fcvt.d.w	fa5,a4
	fld	fa4,%lo(scale)(a5)
	li	a4,0
	addi	a7,sp,4
	fmul.d	fa5,fa5,fa4
	li	a0,10
	li	t1,9
	fcvt.w.d t3,fa5,rtz
	mv	a3,t3
.L9:
	remu	a1,a3,a0
	mv	a2,a4
	addi	a4,a4,1
	add	a5,a7,a4
	mv	a6,a3
	addi	a1,a1,48
	sb	a1,-1(a5)
	divu	a3,a3,a0
	bgtu	a6,t1,.L9
	lui	a1,%hi(.LANCHOR1)
	addi	a6,a1,%lo(.LANCHOR1)
	addi	a3,a1,%lo(.LANCHOR1)
.L10:
	lbu	a0,-1(a5)
	addi	a5,a5,-1
	addi	a3,a3,1
	sb	a0,-1(a3)
	bne	a7,a5,.L10
	add	a5,a6,a4
	li	a4,10
	sb	a4,0(a5)
	li	a0,1
	addi	a1,a1,%lo(.LANCHOR1)
	addi	a2,a2,2
	li	a7,64
 #APP
# 12 "sum.c" 1
	ecall
# 0 "" 2
 #NO_APP
	li	a1,0
	andi	a0,t3,255
	li	a2,0
	li	a7,93
 #APP
# 12 "sum.c" 1
	ecall
# 0 "" 2
 #NO_APP
.L11:
	j	.L11
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
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
