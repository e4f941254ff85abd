# nb_draw.s: the Neighborhood input (stressmarks-spec section 2, "Input"):
# every tile draws the whole random stream of lines and paints only the
# pixels of its own rows. Included by nb_common.s (its nb_* words and
# parameters).

    .text

# nb_generate(): draws the NB_LINES lines, in order (later lines overwrite
# earlier ones): start and end cells (redrawn while equal), thickness, the
# shades at both ends.
nb_generate:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    li a0, NB_SEED
    la a1, nb_rng
    call ran1_init
    li s0, NB_LINES
1:  la a0, nb_rng
    li a1, 0
    li a2, NB_DIM * NB_DIM - 1
    call rand_int
    mv s1, a0                       # start
2:  la a0, nb_rng
    li a1, 0
    li a2, NB_DIM * NB_DIM - 1
    call rand_int
    beq a0, s1, 2b
    mv s2, a0                       # end
    la a0, nb_rng
    li a1, NB_TMIN
    li a2, NB_TMAX
    call rand_int
    mv s3, a0                       # thickness
    la a0, nb_rng
    li a1, 0
    li a2, NB_MAX_PIXEL
    call rand_int
    mv s4, a0                       # v0
    la a0, nb_rng
    li a1, 0
    li a2, NB_MAX_PIXEL
    call rand_int
    mv a4, a0                       # v1
    mv a0, s1
    mv a1, s2
    mv a2, s3
    mv a3, s4
    call nb_draw_line
    addi s0, s0, -1
    bnez s0, 1b
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    addi sp, sp, 32
    ret

# nb_draw_line(a0 = start cell, a1 = end cell, a2 = thickness t, a3 = v0,
# a4 = v1): thick Bresenham along the longer axis (columns when |dc| >
# |dr|, rows otherwise), the shade stepped in f32 from v0 by (v1 - v0) /
# steps, each step painting t pixels across the axis (cross - t/2 ..
# cross + t - t/2 - 1, clipped to the image), of which we keep our rows.
#
# s0 = main coordinate, s1 = cross coordinate, s2 = error term, s3 = steps
# left, s4 = main step, s5 = cross step, s6 = 2 |d main|, s7 = 2 |d cross|,
# s8 = t, s9 = t/2, s10 = 1 when walking columns, fs0 = shade, fs1 = its
# increment.
nb_draw_line:
    addi sp, sp, -80
    sw ra, 76(sp)
    sw s0, 72(sp)
    sw s1, 68(sp)
    sw s2, 64(sp)
    sw s3, 60(sp)
    sw s4, 56(sp)
    sw s5, 52(sp)
    sw s6, 48(sp)
    sw s7, 44(sp)
    sw s8, 40(sp)
    sw s9, 36(sp)
    sw s10, 32(sp)
    fsd fs0, 16(sp)
    fsd fs1, 8(sp)
    mv s8, a2
    srli s9, a2, 1
    li t0, NB_DIM
    div t1, a0, t0                  # start row, column
    rem t2, a0, t0
    div t3, a1, t0                  # end row, column
    rem t4, a1, t0
    sub t3, t3, t1                  # dr
    sub t4, t4, t2                  # dc
    srai t5, t3, 31                 # |dr|
    xor t6, t3, t5
    sub t6, t6, t5
    srai t5, t4, 31                 # |dc|
    xor a5, t4, t5
    sub a5, a5, t5
    sltu s10, t6, a5                # walk columns when |dc| > |dr|
    beqz s10, 1f
    mv s0, t2                       # main: columns, cross: rows
    mv s1, t1
    mv a6, t4
    mv a7, t3
    j 2f
1:  mv s0, t1                       # main: rows, cross: columns
    mv s1, t2
    mv a6, t3
    mv a7, t4
2:  srai t5, a6, 31                 # main step: sgn(d main), sgn(0) = +1
    ori s4, t5, 1
    xor s3, a6, t5                  # |d main|
    sub s3, s3, t5
    srai t5, a7, 31
    ori s5, t5, 1
    xor t6, a7, t5                  # |d cross|
    sub t6, t6, t5
    slli s6, s3, 1
    slli s7, t6, 1
    sub s2, s7, s3                  # e = 2 |d cross| - |d main|
    fcvt.s.w fs0, a3, rne           # val = v0
    fcvt.s.w ft0, a4, rne
    fsub.s ft0, ft0, fs0, rne
    fcvt.s.w ft1, s3, rne
    fdiv.s fs1, ft0, ft1, rne       # inc = (v1 - v0) / |d main|
    addi s3, s3, 1                  # steps: |d main| + 1
    lw a3, nb_r0
    lw a4, nb_r1
    lw a5, nb_image
    li a6, NB_ROW_BYTES
3:  fcvt.wu.s t0, fs0, rtz          # the shade (saturating, as the model)
    sub t1, s1, s9                  # across: max(0, cross - t/2) ..
    bgez t1, 4f
    li t1, 0
4:  add t2, s1, s8                  # .. min(dim, cross + t - t/2)
    sub t2, t2, s9
    li t3, NB_DIM
    ble t2, t3, 5f
    mv t2, t3
5:  beqz s10, 7f
    bge t1, a3, 51f                 # a column segment: our rows only
    mv t1, a3
51: ble t2, a4, 52f
    mv t2, a4
52: bge t1, t2, 9f
    sub t3, t1, a3                  # &I[row][main]
    mul t3, t3, a6
    slli t4, s0, 1
    add t3, t3, t4
    add t3, t3, a5
    sub t1, t2, t1
6:  sh t0, 0(t3)
    add t3, t3, a6
    addi t1, t1, -1
    bnez t1, 6b
    j 9f
7:  blt s0, a3, 9f                  # a row segment, if the row is ours
    bge s0, a4, 9f
    bge t1, t2, 9f
    sub t3, s0, a3
    mul t3, t3, a6
    slli t4, t1, 1
    add t3, t3, t4
    add t3, t3, a5
    sub t1, t2, t1
8:  sh t0, 0(t3)
    addi t3, t3, 2
    addi t1, t1, -1
    bnez t1, 8b
9:  fadd.s fs0, fs0, fs1, rne
    bltz s2, 10f
    add s1, s1, s5
    sub s2, s2, s6
10: add s2, s2, s7
    add s0, s0, s4
    addi s3, s3, -1
    bnez s3, 3b
    lw ra, 76(sp)
    lw s0, 72(sp)
    lw s1, 68(sp)
    lw s2, 64(sp)
    lw s3, 60(sp)
    lw s4, 56(sp)
    lw s5, 52(sp)
    lw s6, 48(sp)
    lw s7, 44(sp)
    lw s8, 40(sp)
    lw s9, 36(sp)
    lw s10, 32(sp)
    fld fs0, 16(sp)
    fld fs1, 8(sp)
    addi sp, sp, 80
    ret
