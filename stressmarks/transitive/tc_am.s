# tc_am.s: the Transitive Closure stressmark (Floyd-Warshall over a random
# directed graph; stressmarks-spec.md section 4, thesis 6.2.3) with active
# messages, for the original NIU:
#
#   scmp run stressmarks/transitive/tc_am.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym TC_N=40 --defsym TC_M=100)
#
# Parameters (.equ, --defsym): TC_SEED (-1), TC_N vertices (500), TC_M
# edges drawn (2500), TC_WMAX largest weight (255).
#
# Every tile generates the whole input with the DIS generator and keeps its
# block: tile (x, y) of a W x H mesh owns rows split(n, H, y) and columns
# split(n, W, x) of D. At step k it needs row k over its columns, owned by
# (x, y_k), and column k over its rows, owned by (x_k, y): it requests each
# it does not own with getBlock (a thread on the owner sends the words and
# then raises a flag here), waits for the flags, relaxes its block, and a
# barrier ends the step (without it an owner could serve data of another
# step). Then the tiles sum their blocks' entries per row and per column;
# the row sums are gathered along each grid row into column 0 and the
# column sums along each grid column into row 0, from where they go to node
# 0 (sendDataBlock, then a flag).
#
# Results, on node 0: `tc_result` holds the n row sums then the n column sums
# (u32 wrapping sums of the entries that are not NO_PATH = 2^31-1), and
# `tc_cycles` the cycles from the barrier after generation until node 0
# holds them; node 0 prints both.

    .include "../lib/am.s"
    .include "tc_common.s"

    .text
    .globl _start
_start:
    .ifdef TC_AM_LITERAL
    la a0, tc_steps_am_lit
    .else
    la a0, tc_steps_am
    .endif
    la a1, tc_gather_am
    la a2, tc_version
    li a3, 0
    j tc_main

# The n steps. s0 = k, s1 = x, s2 = y, s3 = W, s4 = H, s5 = lc, s6 = lr,
# s7 = row k's pointer, s8 = column k's pointer, s9 = its stride (bytes),
# s10 = the flags to wait for (bit 0 row, bit 1 column).
tc_steps_am:
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
2:  mul a0, t0, s3              # request it from (x, y_k)
    add a0, a0, s1
    mv s7, a0
    li a0, TC_N
    mv a1, s4
    mv a2, t0
    call tc_split               # its first row
    sub a4, s0, a0
    mul a4, a4, s5
    slli a4, a4, 2              # byte offset of row k in its block
    mv a0, s7
    lw a1, tc_rowbuf
    li a2, 1
    la a3, tc_block_ptr
    li a5, 1
    mv a6, s5
    la a7, tc_flag_row
    call getBlock
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
    mv s9, a0                   # its columns end here
    li a0, TC_N
    mv a1, s3
    mv a2, s8
    call tc_split
    sub s9, s9, a0              # its column count: the column's stride
    sub a4, s0, a0
    slli a4, a4, 2
    mul a0, s2, s3
    add a0, a0, s8
    lw a1, tc_colbuf
    li a2, 1
    la a3, tc_block_ptr
    mv a5, s9
    mv a6, s6
    la a7, tc_flag_col
    call getBlock
    lw s8, tc_colbuf
    li s9, 4
    ori s10, s10, 2
5:  andi t0, s10, 1
    beqz t0, 6f
    la a0, tc_flag_row
    call amWaitFlag
6:  andi t0, s10, 2
    beqz t0, 7f
    la a0, tc_flag_col
    call amWaitFlag
7:  mv a0, s7
    mv a1, s8
    mv a2, s9
    call tc_relax
    call SCMPBarrier
    addi s0, s0, 1
    li t0, TC_N
    bltu s0, t0, 1b
    TC_LEAVE

# The gather: row sums along grid rows into column 0, column sums along
# grid columns into row 0, then those to node 0; each block is a data
# message and a flag. s1 = x, s2 = y, s3 = W, s4 = H, s5 = lc, s6 = lr.
tc_gather_am:
    TC_ENTER
    beqz s1, 1f                 # our row sums to (0, y), slot x - 1
    mul s0, s2, s3
    mv a0, s0
    lw a1, tc_gather_rows
    addi t0, s1, -1
    lw t1, tc_rmax
    mul t0, t0, t1
    slli t0, t0, 2
    add a1, a1, t0
    li a2, 1
    call tc_row_sums
    mv a3, a0
    li a4, 1
    mv a5, s6
    mv a0, s0
    call sendDataBlock
    mv a0, s0
    la a1, tc_flags_row
    slli t0, s1, 2
    add a1, a1, t0
    li a2, 1
    call sendDataIntValue
1:  beqz s2, 2f                 # our column sums to (x, 0), slot y - 1
    mv a0, s1
    lw a1, tc_gather_cols
    addi t0, s2, -1
    lw t1, tc_cmax
    mul t0, t0, t1
    slli t0, t0, 2
    add a1, a1, t0
    li a2, 1
    call tc_col_sums
    mv a3, a0
    li a4, 1
    mv a5, s5
    mv a0, s1
    call sendDataBlock
    mv a0, s1
    la a1, tc_flags_col
    slli t0, s2, 2
    add a1, a1, t0
    li a2, 1
    call sendDataIntValue
2:  bnez s1, 4f                 # column 0 adds its grid row's row sums
    li s0, 1
3:  bgeu s0, s3, 4f
    la a0, tc_flags_row
    slli t0, s0, 2
    add a0, a0, t0
    call amWaitFlag
    call tc_row_sums
    lw a1, tc_gather_rows
    addi t0, s0, -1
    lw t1, tc_rmax
    mul t0, t0, t1
    slli t0, t0, 2
    add a1, a1, t0
    mv a2, s6
    call tc_add_words
    addi s0, s0, 1
    j 3b
4:  bnez s2, 6f                 # row 0 adds its grid column's column sums
    li s0, 1
5:  bgeu s0, s4, 6f
    la a0, tc_flags_col
    slli t0, s0, 2
    add a0, a0, t0
    call amWaitFlag
    call tc_col_sums
    lw a1, tc_gather_cols
    addi t0, s0, -1
    lw t1, tc_cmax
    mul t0, t0, t1
    slli t0, t0, 2
    add a1, a1, t0
    mv a2, s5
    call tc_add_words
    addi s0, s0, 1
    j 5b
6:  bnez s1, 7f                 # (0, y), y > 0: the row sums to node 0
    beqz s2, 7f
    call tc_row_sums
    mv a1, a0
    mv a3, a0
    li a0, 0
    li a2, 1
    li a4, 1
    mv a5, s6
    call sendDataBlock
    li a0, 0
    la a1, tc_flags_final_row
    slli t0, s2, 2
    add a1, a1, t0
    li a2, 1
    call sendDataIntValue
7:  bnez s2, 8f                 # (x, 0), x > 0: the column sums to node 0
    beqz s1, 8f
    call tc_col_sums
    mv a1, a0
    mv a3, a0
    li a0, 0
    li a2, 1
    li a4, 1
    mv a5, s5
    call sendDataBlock
    li a0, 0
    la a1, tc_flags_final_col
    slli t0, s1, 2
    add a1, a1, t0
    li a2, 1
    call sendDataIntValue
8:  lw t0, tc_node              # node 0 waits for them
    bnez t0, 11f
    li s0, 1
9:  bgeu s0, s4, 10f
    la a0, tc_flags_final_row
    slli t0, s0, 2
    add a0, a0, t0
    call amWaitFlag
    addi s0, s0, 1
    j 9b
10: li s0, 1
    bgeu s0, s3, 11f
101: la a0, tc_flags_final_col
    slli t0, s0, 2
    add a0, a0, t0
    call amWaitFlag
    addi s0, s0, 1
    bltu s0, s3, 101b
11: TC_LEAVE

    .ifdef TC_AM_LITERAL
    .include "tc_am_lit_steps.s"
    .endif

    .section .rodata
    .ifdef TC_AM_LITERAL
tc_version: .asciz "active messages, literal"
    .else
tc_version: .asciz "active messages"
    .endif

    .bss
    .p2align 2
tc_flag_row: .zero 4
tc_flag_col: .zero 4
tc_flags_row: .zero 4 * 32          # gather flags, by the sender's x or y
tc_flags_col: .zero 4 * 32
tc_flags_final_row: .zero 4 * 32
tc_flags_final_col: .zero 4 * 32
    .ifdef TC_AM_LITERAL
tc_lit_done: .zero 4                # steps this node has finished
tc_lit_races: .zero 4               # flags seen before their data
tc_lit_waits: .zero 4               # requests that found us behind
    .endif
# The heap starts here and must stay the last thing in memory: tc_result
# (n row sums, n column sums), then what tc_setup lays out.
    .p2align 3
    .globl tc_result
tc_result:
