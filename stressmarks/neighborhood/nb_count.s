# nb_count.s: the Neighborhood kernel and the histogram bookkeeping
# (stressmarks-spec section 2, "Computation" and "Parallel"): counting a
# class's pairs, clearing the histograms, and adding another node's counts
# of our bins from its slot. Included by nb_common.s (its nb_* words and
# parameters).

    .text

# nb_count_class(a0 = class): counts into the histograms every pair
# (I[r][c], I[r+dy][c+dx]) whose first pixel is in our rows: sum[g+h] and
# diff[g-h+maxPixel]. The kernel of the stressmark: per pair two halfword
# loads and two read-modify-writes, four pairs per round.
nb_count_class:
    mv a6, ra
    call nb_class_offsets           # a0 = dx, a1 = dy (a leaf after this)
    li t0, NB_DIM
    sub t1, t0, a1                  # rows up to min(r1, dim - dy)
    lw a5, nb_r1
    bleu a5, t1, 1f
    mv a5, t1
1:  lw t1, nb_r0
    sub a5, a5, t1                  # a5 = rows to count
    blez a5, 9f
    srai t2, a0, 31                 # |dx|
    xor t3, a0, t2
    sub t3, t3, t2
    sub a7, t0, t3                  # a7 = pairs per row
    and t2, t2, t3                  # first column: -dx if dx < 0, else 0
    lw t4, nb_image
    slli t2, t2, 1
    add t4, t4, t2                  # t4 = &I[r0][first]
    li t5, NB_ROW_BYTES
    mul t5, t5, a1
    slli t6, a0, 1
    add t5, t5, t6                  # t5 = the partner's offset in bytes
    lw a3, nb_sum
    lw a4, nb_diff
    li t0, 4 * NB_MAX_PIXEL
    add a4, a4, t0                  # diff[g - h + maxPixel]
    mv a0, t4
2:  mv a2, a0                       # a row: a0 = g, a1 = h
    add a1, a0, t5
    andi t6, a7, 3
    beqz t6, 4f
3:  lhu t0, 0(a0)                   # the pairs beyond a multiple of 4
    lhu t1, 0(a1)
    add t2, t0, t1
    sub t3, t0, t1
    slli t2, t2, 2
    slli t3, t3, 2
    add t2, t2, a3
    add t3, t3, a4
    lw t0, 0(t2)
    addi t0, t0, 1
    sw t0, 0(t2)
    lw t1, 0(t3)
    addi t1, t1, 1
    sw t1, 0(t3)
    addi a0, a0, 2
    addi a1, a1, 2
    addi t6, t6, -1
    bnez t6, 3b
4:  andi t6, a7, -4
    beqz t6, 8f
    slli t6, t6, 1
    add t6, t6, a0                  # t6 = the row's end
    sw a5, nb_count_rows, t0
5:
    .irp off, 0, 2, 4, 6
    lhu t0, \off(a0)
    lhu t1, \off(a1)
    add t2, t0, t1
    sub t3, t0, t1
    slli t2, t2, 2
    slli t3, t3, 2
    add t2, t2, a3
    add t3, t3, a4
    lw t4, 0(t2)
    addi t4, t4, 1
    sw t4, 0(t2)
    lw a5, 0(t3)
    addi a5, a5, 1
    sw a5, 0(t3)
    .endr
    addi a0, a0, 8
    addi a1, a1, 8
    bne a0, t6, 5b
    lw a5, nb_count_rows
8:  li t0, NB_ROW_BYTES             # the next row
    add a0, a2, t0
    addi a5, a5, -1
    bnez a5, 2b
9:  mv ra, a6
    ret

# nb_clear_histograms(): zeroes both histograms (NB_HIST_WORDS words)
nb_clear_histograms:
    lw t0, nb_sum
    li t1, 4 * NB_HIST_WORDS
    add t1, t1, t0
1:
    .irp off, 0, 4, 8, 12, 16, 20, 24, 28
    sw zero, \off(t0)
    .endr
    addi t0, t0, 32
    bne t0, t1, 1b
    ret

# nb_add_words(a0 = destination, a1 = source, a2 = count): dst[i] += src[i]
nb_add_words:
    andi t6, a2, 3
    beqz t6, 2f
1:  lw t0, 0(a0)
    lw t1, 0(a1)
    add t0, t0, t1
    sw t0, 0(a0)
    addi a0, a0, 4
    addi a1, a1, 4
    addi t6, t6, -1
    bnez t6, 1b
2:  andi a2, a2, -4
    beqz a2, 4f
    slli a2, a2, 2
    add a2, a2, a0
3:
    .irp off, 0, 4, 8, 12
    lw t0, \off(a0)
    lw t1, \off(a1)
    add t0, t0, t1
    sw t0, \off(a0)
    .endr
    addi a0, a0, 16
    addi a1, a1, 16
    bne a0, a2, 3b
4:  ret

# nb_accumulate_slot(a0 = slot): adds another node's counts of our bins,
# as they lie in its slot (sum, a word, difference), into our histograms.
nb_accumulate_slot:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, a0
    mv a1, a0
    lw a0, nb_b0
    slli a0, a0, 2
    lw t0, nb_sum
    add a0, a0, t0
    lw a2, nb_blen
    call nb_add_words
    lw a2, nb_blen
    slli a1, a2, 2
    add a1, a1, s0
    addi a1, a1, 4
    lw a0, nb_b0
    slli a0, a0, 2
    lw t0, nb_diff
    add a0, a0, t0
    call nb_add_words
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

# nb_slot(a0 = round j, 1 .. P-1) -> a0: the slot of the node j before us
nb_slot:
    addi a0, a0, -1
    lw t0, nb_slot_bytes
    mul a0, a0, t0
    lw t0, nb_slots
    add a0, a0, t0
    ret
