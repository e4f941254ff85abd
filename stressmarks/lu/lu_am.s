# lu_am.s: the LU stressmark (SPLASH-2's blocked LU without pivoting;
# stressmarks-spec.md section 5, thesis 6.3) with active messages, for the
# original NIU:
#
#   scmp run stressmarks/lu/lu_am.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym LU_N=64 --defsym LU_B=8)
#
# Parameters (.equ, --defsym): LU_N, the matrix side (512), LU_B, the block
# side (16); LU_PRINT_MATRIX (1 up to n = 64) prints the factored matrix.
#
# Every tile generates the whole matrix with lrand48 (SPLASH-2's InitA) and
# keeps its blocks: block (I, J) belongs to tile (J mod W, I mod H), the
# 2-D scatter with the mesh as the processor grid. For each K (the spec's
# AM steps, barriers between them): the owner of D = A_KK factors it;
# barrier; the owners of perimeter blocks fetch D (getBlock) and divide
# theirs, A_IK by U_KK on the right in D's grid column, A_KJ by L_KK on the
# left in D's grid row; barrier; every tile fetches each L_IK from (xk, y)
# and U_KJ from (x, yk) that its interior blocks need and it does not own
# (getBlock with a flag each, up to LU_AM_WINDOW in flight), updates its
# interior blocks A_IJ -= L_IK U_KJ; barrier.
#
# Results: node 0 gathers the blocks (after the timed region) into
# `lu_matrix` (n² doubles in the model's layout: block (I, J) at
# (I + J n/B) B² doubles, column-major inside) and leaves the sum of all
# entries at `lu_checksum`, the solve check's max |y - 1| at
# `lu_solve_error` and the cycles of the timed region at `lu_cycles`, and
# prints them (lu_report.s).

    .include "../lib/am.s"

# LU_AM_AS_NEEDED = 1: the interior update requests each L_IK and U_KJ it
# does not own when it first needs it, one request at a time (a blocking
# getBlock between two block updates), instead of every needed block of
# the iteration before the update (up to LU_AM_WINDOW in flight): 6.3.1's
# "nodes request the diagonal block and perimeter blocks by creating
# threads on the nodes that own these blocks", a request per block needed.
# Default 0 (today's programs; a profile's [profile.programs] sets it).
    .ifndef LU_AM_AS_NEEDED
    .equ LU_AM_AS_NEEDED, 0
    .endif
    .if LU_AM_AS_NEEDED
    .equ LU_NEED_HOOK, 1            # lu_steps.s calls lu_need_block
    .endif

    .include "lu_common.s"

    .ifndef LU_AM_WINDOW
    .equ LU_AM_WINDOW, 8            # getBlocks in flight per tile
    .endif

    .text
    .globl _start
_start:
    la a0, lu_factor_am
    la a1, lu_gather_am
    la a2, lu_version
    j lu_main

# The nb iterations. s0 = K.
lu_factor_am:
    FRAME_ENTER
    li s0, 0
1:  mv a0, s0
    call lu_iteration
    lw t0, lu_is_downer
    beqz t0, 2f
    call lu_diag
    call lu_factor_diag
2:  call SCMPBarrier
    lw t0, lu_need_d
    beqz t0, 3f
    mv a0, s0
    mv a1, s0
    call lu_owner_offset
    mv a4, a0
    mv a0, s0
    mv a1, s0
    call lu_owner
    lw a1, lu_dbuf
    li a2, 1
    la a3, lu_blocks_ptr
    li a5, 1
    li a6, LU_BLOCK_WORDS
    li a7, 0
    call getBlock
3:  addi a0, s0, 1
    lw a1, lu_nb
    li a2, 0
    call lu_divide
    call SCMPBarrier
    .if LU_AM_AS_NEEDED
    call lu_need_reset
    .else
    addi a0, s0, 1
    lw a1, lu_nb
    la a2, lu_fetch_am
    call lu_for_needed
    call lu_wait_fetches_am
    .endif
    call lu_update_interior
    call SCMPBarrier
    addi s0, s0, 1
    lw t0, lu_nb
    bltu s0, t0, 1b
    FRAME_LEAVE

# lu_for_needed callback: a0 = I (L_IK) or J (U_KJ), a1 = li or lj,
# a2 = 0 for L, 1 for U. Requests the block into its buffer, with its flag;
# with LU_AM_WINDOW requests in flight, first waits for them.
lu_fetch_am:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    mv s0, a0
    mv s1, a1
    mv s2, a2
    lw t0, lu_am_pending
    li t1, LU_AM_WINDOW
    bltu t0, t1, 1f
    call lu_wait_fetches_am
1:  lw t0, lu_k
    bnez s2, 2f
    mv a0, s0                   # L_IK: from (xk, y), into lbuf[li]
    mv a1, t0
    call lu_owner_offset
    sw a0, 8(sp)
    mv a0, s0
    lw a1, lu_k
    call lu_owner
    li t0, LU_BLOCK_BYTES
    mul a1, s1, t0
    lw t0, lu_lbuf
    add a1, a1, t0
    slli a7, s1, 2
    j 3f
2:  mv a0, t0                   # U_KJ: from (x, yk), into ubuf[lj]
    mv a1, s0
    call lu_owner_offset
    sw a0, 8(sp)
    lw a0, lu_k
    mv a1, s0
    call lu_owner
    li t0, LU_BLOCK_BYTES
    mul a1, s1, t0
    lw t0, lu_ubuf
    add a1, a1, t0
    lw t0, lu_lrows
    add a7, s1, t0
    slli a7, a7, 2
3:  lw t0, lu_flags
    add a7, a7, t0
    lw t0, lu_am_pending        # remember the flag
    slli t1, t0, 2
    la t2, lu_am_flags
    add t1, t1, t2
    sw a7, 0(t1)
    addi t0, t0, 1
    sw t0, lu_am_pending, t1
    li a2, 1
    la a3, lu_blocks_ptr
    lw a4, 8(sp)
    li a5, 1
    li a6, LU_BLOCK_WORDS
    call getBlock
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    addi sp, sp, 32
    ret

# lu_wait_fetches_am(): waits for the flags of the requests in flight.
lu_wait_fetches_am:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    li s0, 0
1:  lw t0, lu_am_pending
    bgeu s0, t0, 2f
    slli t1, s0, 2
    la t2, lu_am_flags
    add t1, t1, t2
    lw a0, 0(t1)
    call amWaitFlag
    addi s0, s0, 1
    j 1b
2:  sw zero, lu_am_pending, t0
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

    .if LU_AM_AS_NEEDED
# lu_need_reset(): no L or U block of the iteration is here yet (their
# flags, lrows + lcols words at lu_flags, cleared).
lu_need_reset:
    lw t0, lu_lrows
    lw t1, lu_lcols
    add t0, t0, t1
    lw t1, lu_flags
1:  beqz t0, 2f
    sw zero, 0(t1)
    addi t1, t1, 4
    addi t0, t0, -1
    j 1b
2:  ret

# lu_need_block(a0 = I or J, a1 = li or lj, a2 = 0 for L_IK, 1 for U_KJ),
# from lu_update_interior: unless its flag says it is here, requests the
# block (lu_fetch_am) and waits for it.
lu_need_block:
    mv t3, a1
    beqz a2, 1f
    lw t0, lu_lrows
    add t3, t3, t0
1:  slli t3, t3, 2
    lw t0, lu_flags
    add t3, t3, t0
    lw t0, 0(t3)
    bnez t0, 2f
    addi sp, sp, -16
    sw ra, 12(sp)
    call lu_fetch_am
    call lu_wait_fetches_am
    lw ra, 12(sp)
    addi sp, sp, 16
2:  ret
    .endif

# lu_gather's fetch: a blocking getBlock.
lu_gather_block_am:
    addi sp, sp, -16
    sw ra, 12(sp)
    mv a4, a2
    li a2, 1
    la a3, lu_blocks_ptr
    li a5, 1
    li a6, LU_BLOCK_WORDS
    li a7, 0
    call getBlock
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

lu_gather_am:
    la a0, lu_gather_block_am
    j lu_gather

    .section .rodata
    .ifdef LU_LITERAL
lu_version: .asciz "active messages, literal"
    .else
lu_version: .asciz "active messages"
    .endif

    .bss
    .p2align 2
lu_am_pending: .zero 4                  # requests in flight
lu_am_flags: .zero 4 * LU_AM_WINDOW     # their flags
# The heap starts here and must stay the last thing in memory: node 0's
# lu_matrix, then what lu_setup lays out.
    .p2align 3
    .globl lu_matrix
lu_matrix:
