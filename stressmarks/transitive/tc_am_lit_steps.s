# tc_am_lit_steps.s: the steps of the Transitive Closure with active
# messages as the thesis describes them (included by tc_am.s when
# TC_AM_LITERAL is defined, as tc_am_lit.s does; the sweep's
# transitive-literal row): "each node requests the portion of row k and
# column k it needs by starting a thread on the nodes that own those
# portions" (6.2.3), with no barrier between the steps (the thesis has
# none; tc_am.s ends every step with one).
#
# Without the barrier an owner may be behind or ahead of a requester:
# - behind: it has not finished step k-1, so its row k (column k) may still
#   change. The request's thread waits (polls, `yield`) until its node has
#   finished step k-1, then sends; such waits are counted (`handler_waits`).
# - ahead: it has relaxed its block in later steps, so the row k it sends
#   may already be smaller. Every value is still the length of a real path
#   and no larger than step k's, so the relaxation keeps Floyd-Warshall's
#   invariant and every result is exact (row k and column k do not change
#   during step k itself: D[k][k] >= 0).
# Each transfer is a data message and then a flag message (thesis 3.3,
# 3.4); the data message carries one more word after the data, a stamp
# (k + 1), which the requester waits for after the flag, so a flag that
# overtakes its data (the race of 3.4) costs a wait, not wrong values
# (counted: `flag_races`).

    .text

# The n steps, as tc_steps_am without the barrier: s0 = k, s1 = x, s2 = y,
# s3 = W, s4 = H, s5 = lc, s6 = lr, s7 = row k's pointer, s8 = column k's
# pointer, s9 = its stride (bytes), s10 = the transfers to wait for (bit 0
# row, bit 1 column), s11 = the column count.
tc_steps_am_lit:
    TC_ENTER
    li s0, 0
1:  li s10, 0
    addi t0, s0, 1              # y_k = ((k+1) H - 1) / n, the owner's row
    mul t0, t0, s4
    addi t0, t0, -1
    li t1, TC_N
    divu t0, t0, t1
    bne t0, s2, 2f
    lw t1, tc_r0                # ours: row k - r0 of the block
    sub t1, s0, t1
    mul t1, t1, s5
    slli t1, t1, 2
    lw s7, tc_block
    add s7, s7, t1
    j 3f
2:  mul s7, t0, s3              # request it from (x, y_k)
    add s7, s7, s1
    li a0, TC_N
    mv a1, s4
    mv a2, t0
    call tc_split               # its first row
    sub a5, s0, a0
    mul a5, a5, s5
    slli a5, a5, 2              # byte offset of row k in its block
    li a6, 1 << 16              # stride 1, lc words
    or a6, a6, s5
    addi a7, s0, 1              # stamp k + 1, the row flag
    sw zero, tc_flag_row, t0
    lw a4, tc_rowbuf
    mv a0, s7
    call tc_lit_request
    lw s7, tc_rowbuf
    ori s10, s10, 1
3:  addi t0, s0, 1              # x_k = ((k+1) W - 1) / n
    mul t0, t0, s3
    addi t0, t0, -1
    li t1, TC_N
    divu t0, t0, t1
    bne t0, s1, 4f
    lw t1, tc_c0                # ours: column k - c0 of the block
    sub t1, s0, t1
    slli t1, t1, 2
    lw s8, tc_block
    add s8, s8, t1
    slli s9, s5, 2
    j 5f
4:  mv s8, t0                   # request it from (x_k, y)
    li a0, TC_N
    mv a1, s3
    addi a2, t0, 1
    call tc_split
    mv s11, a0                  # its columns end here
    li a0, TC_N
    mv a1, s3
    mv a2, s8
    call tc_split
    sub s11, s11, a0            # its column count: the column's stride
    sub a5, s0, a0
    slli a5, a5, 2
    slli a6, s11, 16            # stride its lc, lr words
    or a6, a6, s6
    addi a7, s0, 1              # stamp k + 1, the column flag
    li t0, 1 << 31
    or a7, a7, t0
    sw zero, tc_flag_col, t0
    lw a4, tc_colbuf
    mul a0, s2, s3
    add a0, a0, s8
    call tc_lit_request
    lw s8, tc_colbuf
    li s9, 4
    ori s10, s10, 2
5:  andi t0, s10, 1
    beqz t0, 6f
    la a0, tc_flag_row
    call amWaitFlag
    lw a0, tc_rowbuf            # the stamp after lc words
    slli t0, s5, 2
    add a0, a0, t0
    addi a1, s0, 1
    call tc_lit_wait_stamp
6:  andi t0, s10, 2
    beqz t0, 7f
    la a0, tc_flag_col
    call amWaitFlag
    lw a0, tc_colbuf            # the stamp after lr words
    slli t0, s6, 2
    add a0, a0, t0
    addi a1, s0, 1
    call tc_lit_wait_stamp
7:  mv a0, s7
    mv a1, s8
    mv a2, s9
    call tc_relax
    addi s0, s0, 1
    sw s0, tc_lit_done, t0      # step k is done
    li t0, TC_N
    bltu s0, t0, 1b
    TC_LEAVE

# tc_lit_request(a0 = owner, a4 = dst here, a5 = source offset in its block
# (bytes), a6 = source stride << 16 | words, a7 = stamp | column flag << 31):
# a thread on the owner (tc_lit_serve) sends the words, the stamp and then
# the flag.
tc_lit_request:
    lw a3, tc_node
    la a1, tc_lit_serve
    li a2, 0
    tail createThread

# The request's thread on the owner: a0 = requesting node, a1 = dst there,
# a2 = source offset (bytes), a3 = stride << 16 | words, a4 = stamp (k + 1)
# | column flag << 31. Waits until this node has finished step k - 1, sends
# the words and the stamp in one data message, then the flag, and ends.
tc_lit_serve:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a0
    mv s1, a4
    slli t1, a4, 1              # the stamp, k + 1
    srli t1, t1, 1
    addi t1, t1, -1             # k: steps to have finished
    lw t0, tc_lit_done
    bgeu t0, t1, 2f
    la t2, tc_lit_waits         # behind: wait
    lw t3, 0(t2)
    addi t3, t3, 1
    sw t3, 0(t2)
1:  yield
    lw t0, tc_lit_done
    bltu t0, t1, 1b
2:  lw t0, tc_block
    add a2, a2, t0
    li t0, 1
    sendh a0, data, a1, t0
    sendm a2, a3
    slli t1, s1, 1
    srli t1, t1, 1
    sende t1
    la a1, tc_flag_row
    bgez s1, 3f
    la a1, tc_flag_col
3:  mv a0, s0
    li a2, 1
    call sendDataIntValue
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret

# tc_lit_wait_stamp(a0 = address, a1 = stamp): after a flag, waits for the
# stamp its data message carries (counting a race when it is not there yet).
tc_lit_wait_stamp:
    lw t0, 0(a0)
    beq t0, a1, 2f
    la t1, tc_lit_races
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
1:  yield
    lw t0, 0(a0)
    bne t0, a1, 1b
2:  ret

# tc_v_finish(): after the timed region, node 0 prints the flag races and
# the requests that found their owner behind, summed over the nodes.
tc_v_finish:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    lw a0, tc_lit_races
    call SCMPReduceSumInt
    mv s0, a0
    lw a0, tc_lit_waits
    call SCMPReduceSumInt
    lw t0, tc_node
    bnez t0, 1f
    mv t1, a0
    la a0, tc_lit_races_text
    li a7, TC_PRINT_STRING
    ecall
    mv a0, s0
    li a7, TC_PRINT_INT
    ecall
    la a0, tc_lit_waits_text
    li a7, TC_PRINT_STRING
    ecall
    mv a0, t1
    li a7, TC_PRINT_INT
    ecall
    li a0, '\n'
    li a7, TC_PRINT_CHAR
    ecall
1:  lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

    .section .rodata
tc_lit_races_text: .asciz "flag_races "
tc_lit_waits_text: .asciz "\nhandler_waits "
    .text
