# The hart's operations of their own form (issue 33), 200,000 times: jal/jalr,
# lr.w/sc.w, flw/fsw/fld/fsd, fsgnj*.d, fmv.x.w/fmv.w.x, fcvt.d.w[u],
# feq/flt/fle.d (lr.w sends the next stores the careful way). Exits with a
# checksum (196). Compare builds: valgrind --tool=callgrind scmp run THIS --mesh 1x1
# run: mesh=1x1
    .text
    .globl _start
_start:
    la s0, buf
    li s1, 200000           # iterations
    li s2, 0                # checksum
    li t0, 5
    fcvt.d.w fs0, t0
    li t0, -3
    fcvt.d.w fs1, t0
loop:
    fld ft0, 0(s0)
    fsgnj.d ft1, ft0, fs1
    fsgnjn.d ft2, ft1, fs0
    fsgnjx.d ft3, ft2, fs1
    fsd ft3, 8(s0)
    flw ft4, 16(s0)
    fsw ft4, 20(s0)
    fmv.x.w t1, ft4
    add s2, s2, t1
    fmv.w.x ft5, s1
    fcvt.d.w ft6, s1
    fcvt.d.wu ft7, s1
    feq.d t2, ft6, ft7
    flt.d t3, ft6, fs0
    fle.d t4, fs1, ft6
    add s2, s2, t2
    add s2, s2, t3
    add s2, s2, t4
    jal ra, leaf
    lr.w t5, (s0)
    addi t5, t5, 1
    sc.w t6, t5, (s0)
    add s2, s2, t6
    addi s1, s1, -1
    bnez s1, loop
    andi a0, s2, 0xff
    li a7, 93
    ecall
leaf:
    addi s2, s2, 1
    jalr zero, 0(ra)

    .data
    .align 3
buf:
    .dword 0x4000000000000000
    .dword 0
    .word 0x3f800000
    .word 0
