# lu_steps.s: the LU programs' per-iteration machinery (included by
# lu_common.s, whose words and parameters it uses): where a block lives
# (lu_block, lu_owner, lu_owner_offset), the iteration's bookkeeping
# (lu_iteration, lu_diag), the iterators over owned and needed blocks
# (lu_for_owned, lu_for_needed), and steps 2 to 4 for this node's blocks
# (lu_divide, lu_update_interior); the block kernels are in lu_kernels.s.

# lu_block(a0 = li, a1 = lj) -> a0 = the address of this node's block
# (li, lj): block (li H + y, lj W + x) of the matrix.
    .type lu_block, @function
lu_block:
    lw t0, lu_lrows
    mul a1, a1, t0
    add a0, a0, a1
    li t0, LU_BLOCK_BYTES
    mul a0, a0, t0
    lw t0, lu_blocks
    add a0, a0, t0
    ret
    .size lu_block, . - lu_block

# lu_owner(a0 = I, a1 = J) -> a0 = the node owning block (I, J):
# (x, y) = (J mod W, I mod H), the spec's 2-D scatter.
    .type lu_owner, @function
lu_owner:
    lw t0, lu_h
    remu a0, a0, t0
    lw t1, lu_w
    remu a1, a1, t1
    mul a0, a0, t1
    add a0, a0, a1
    ret
    .size lu_owner, . - lu_owner

# lu_owner_offset(a0 = I, a1 = J) -> a0 = block (I, J)'s byte offset in
# its owner's block storage (the owner has lrows = ceil((nb - I mod H) / H)).
    .type lu_owner_offset, @function
lu_owner_offset:
    lw t0, lu_h
    lw t1, lu_w
    lw t2, lu_nb
    remu t3, a0, t0
    sub t3, t2, t3
    add t3, t3, t0
    addi t3, t3, -1
    divu t3, t3, t0             # the owner's lrows
    divu a0, a0, t0
    divu a1, a1, t1
    mul a1, a1, t3
    add a0, a0, a1
    li t0, LU_BLOCK_BYTES
    mul a0, a0, t0
    ret
    .size lu_owner_offset, . - lu_owner_offset

# lu_next_owned(a0 = K, a1 = p, a2 = P) -> a0 = the least index > K that is
# p mod P (>= nb: there is none).
    .type lu_next_owned, @function
lu_next_owned:
    addi a0, a0, 1
    remu t0, a0, a2
    sub t0, a1, t0
    bgez t0, 1f
    add t0, t0, a2
1:  add a0, a0, t0
    ret
    .size lu_next_owned, . - lu_next_owned

# lu_has_after(a0 = K, a1 = p, a2 = P) -> a0 = 1 if some index in (K, nb)
# is p mod P: whether grid column p (P = W) or row p (P = H) owns blocks
# beyond K.
    .type lu_has_after, @function
lu_has_after:
    addi a0, a0, 1
    remu t0, a0, a2
    sub t0, a1, t0
    bgez t0, 1f
    add t0, t0, a2
1:  add a0, a0, t0
    lw t0, lu_nb
    sltu a0, a0, t0
    ret
    .size lu_has_after, . - lu_has_after

# lu_iteration(a0 = K): the words of iteration K below (lu_k .. lu_need_u).
lu_iteration:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, a0
    sw a0, lu_k, t0
    lw t0, lu_w
    remu t1, a0, t0
    sw t1, lu_xk, t2
    lw t0, lu_h
    remu t1, a0, t0
    sw t1, lu_yk, t2
    lw a1, lu_y                 # our first row and column of blocks after K
    lw a2, lu_h
    call lu_next_owned
    sw a0, lu_first_i, t0
    mv a0, s0
    lw a1, lu_x
    lw a2, lu_w
    call lu_next_owned
    sw a0, lu_first_j, t0
    lw t0, lu_nb
    lw t1, lu_first_i
    sltu t1, t1, t0             # rows after K
    lw t2, lu_first_j
    sltu t2, t2, t0             # columns after K
    and t3, t1, t2              # interior blocks
    lw a0, lu_x
    lw a1, lu_y
    lw a2, lu_xk
    lw a3, lu_yk
    xor a4, a0, a2
    seqz a4, a4                 # we are in D's grid column
    xor a5, a1, a3
    seqz a5, a5                 # in D's grid row
    and a6, a4, a5
    sw a6, lu_is_downer, t4
    and t4, a4, t1              # a column-perimeter block
    and t5, a5, t2              # a row-perimeter block
    or t4, t4, t5
    xori a6, a6, 1
    and t4, t4, a6
    sw t4, lu_need_d, t5
    xori t4, a4, 1
    and t4, t4, t3
    sw t4, lu_need_l, t5
    xori t4, a5, 1
    and t4, t4, t3
    sw t4, lu_need_u, t5
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

# lu_diag() -> a0 = D of the current iteration: our block, or the buffer.
lu_diag:
    lw t0, lu_is_downer
    lw a0, lu_dbuf
    beqz t0, 1f
    addi sp, sp, -16
    sw ra, 12(sp)
    lw t0, lu_h
    lw a0, lu_k
    divu a0, a0, t0
    lw t0, lu_w
    lw a1, lu_k
    divu a1, a1, t0
    call lu_block
    lw ra, 12(sp)
    addi sp, sp, 16
1:  ret

# lu_for_owned(a0 = lo, a1 = hi, a2 = p, a3 = P, a4 = callback, a5 = arg):
# callback(a0 = the index i in [lo, hi) that is p mod P, a1 = i / P,
# a2 = arg) for each, ascending.
lu_for_owned:
    FRAME_ENTER
    mv s1, a1
    mv s2, a3
    mv s3, a4
    mv s4, a5
    addi a0, a0, -1
    mv a1, a2
    mv a2, a3
    call lu_next_owned
    mv s0, a0
1:  bgeu s0, s1, 2f
    mv a0, s0
    divu a1, s0, s2
    mv a2, s4
    jalr s3
    add s0, s0, s2
    j 1b
2:  FRAME_LEAVE

# lu_for_needed(a0 = lo, a1 = hi, a2 = callback): for the L blocks L_IK and
# then the U blocks U_KJ of the current iteration with I (J) in [lo, hi)
# that this node needs and does not own, callback(a0 = I or J, a1 = its
# local index li or lj, a2 = 0 for L, 1 for U).
lu_for_needed:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    lw t0, lu_need_l
    beqz t0, 1f
    lw a2, lu_y
    lw a3, lu_h
    mv a4, s2
    li a5, 0
    call lu_for_owned
1:  lw t0, lu_need_u
    beqz t0, 2f
    mv a0, s0
    mv a1, s1
    lw a2, lu_x
    lw a3, lu_w
    mv a4, s2
    li a5, 1
    call lu_for_owned
2:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# lu_divide(a0 = lo, a1 = hi, a2 = callback or 0): steps 2 and 3 for our
# perimeter blocks with I (J) in [lo, hi): each column-perimeter block
# A_IK = A_IK U_KK⁻¹, then each row-perimeter block A_KJ = L_KK⁻¹ A_KJ;
# after each, callback(a0 = I or J, a1 = li or lj, a2 = 0 for L, 1 for
# U, a3 = the block).
lu_divide:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw a2, lu_divide_callback, t0
    mv s0, a0
    mv s1, a1
    lw t0, lu_x
    lw t1, lu_xk
    bne t0, t1, 1f
    mv a0, s0
    mv a1, s1
    lw a2, lu_y
    lw a3, lu_h
    la a4, lu_divide_column
    li a5, 0
    call lu_for_owned
1:  lw t0, lu_y
    lw t1, lu_yk
    bne t0, t1, 2f
    mv a0, s0
    mv a1, s1
    lw a2, lu_x
    lw a3, lu_w
    la a4, lu_divide_row
    li a5, 1
    call lu_for_owned
2:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# lu_for_owned callbacks of lu_divide (a0 = I or J, a1 = li or lj, a2 =
# 0 or 1); lu_divide's own callback is in lu_divide_callback.
lu_divide_column:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    lw t0, lu_w                 # A_IK: block (li, K / W)
    lw a1, lu_k
    divu a1, a1, t0
    mv a0, s1
    call lu_block
    sw a0, 8(sp)
    call lu_diag
    mv a1, a0
    lw a0, 8(sp)
    call lu_col_perimeter
    j lu_divide_done
lu_divide_row:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    lw t0, lu_h                 # A_KJ: block (K / H, lj)
    lw a0, lu_k
    divu a0, a0, t0
    mv a1, s1
    call lu_block
    sw a0, 8(sp)
    call lu_diag
    mv a1, a0
    lw a0, 8(sp)
    call lu_row_perimeter
lu_divide_done:
    lw t0, lu_divide_callback
    beqz t0, 1f
    mv a0, s0
    mv a1, s1
    mv a2, s2
    lw a3, 8(sp)
    jalr t0
1:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# lu_update_interior(): step 4 for every block (I, J) of ours with I, J > K:
# A_IJ -= L_IK U_KJ, each factor ours or in its buffer. With LU_NEED_HOOK
# (lu_am.s's LU_AM_AS_NEEDED) a factor in its buffer is first asked of
# lu_need_block(a0 = I or J, a1 = li or lj, a2 = 0 for L, 1 for U), which
# requests it the first time the update needs it.
lu_update_interior:
    FRAME_ENTER
    lw t0, lu_nb
    lw s0, lu_first_j           # J
    bgeu s0, t0, 4f
    lw t1, lu_first_i
    bgeu t1, t0, 4f
1:  lw t0, lu_w
    divu s1, s0, t0             # lj
    lw t0, lu_y                 # U_KJ
    lw t1, lu_yk
    slli s2, s1, 0
    li t2, LU_BLOCK_BYTES
    mul s2, s1, t2
    lw t2, lu_ubuf
    add s2, s2, t2
    .ifdef LU_NEED_HOOK
    bne t0, t1, 21f
    .else
    bne t0, t1, 2f
    .endif
    lw t0, lu_h
    lw a0, lu_k
    divu a0, a0, t0
    mv a1, s1
    call lu_block
    mv s2, a0
    .ifdef LU_NEED_HOOK
    j 2f
21: mv a0, s0
    mv a1, s1
    li a2, 1
    call lu_need_block
    .endif
2:  lw s3, lu_first_i           # I
3:  lw t0, lu_h
    divu s4, s3, t0             # li
    li t2, LU_BLOCK_BYTES       # L_IK
    mul s5, s4, t2
    lw t2, lu_lbuf
    add s5, s5, t2
    lw t0, lu_x
    lw t1, lu_xk
    .ifdef LU_NEED_HOOK
    bne t0, t1, 32f
    .else
    bne t0, t1, 31f
    .endif
    lw t0, lu_w
    lw a1, lu_k
    divu a1, a1, t0
    mv a0, s4
    call lu_block
    mv s5, a0
    .ifdef LU_NEED_HOOK
    j 31f
32: mv a0, s3
    mv a1, s4
    li a2, 0
    call lu_need_block
    .endif
31: mv a0, s4
    mv a1, s1
    call lu_block
    mv a1, s5
    mv a2, s2
    call lu_interior
    lw t0, lu_h
    add s3, s3, t0
    lw t0, lu_nb
    bltu s3, t0, 3b
    lw t0, lu_w
    add s0, s0, t0
    lw t0, lu_nb
    bltu s0, t0, 1b
4:  FRAME_LEAVE

