# lu_common.s: what the LU programs share (lu_am.s, lu_sr.s include it
# after their messaging library): the parameters, the cyclic block
# distribution and memory layout, the input generation, the timed run and
# node 0's gather; the per-iteration machinery is in lu_steps.s, the block
# kernels in lu_kernels.s, the check and report in lu_report.s.
# stressmarks-spec.md section 5; the header of lu_am.s and docs/stressmarks.md
# describe the programs.

# Parameters (the spec's defaults; override with --defsym NAME=VALUE).
    .ifndef LU_N
    .equ LU_N, 512
    .endif
    .ifndef LU_B
    .equ LU_B, 16
    .endif
# Print the factored matrix (n² values, for the bit-for-bit check) when 1;
# by default only up to the test size.
    .ifndef LU_PRINT_MATRIX
    .if LU_N <= 64
    .equ LU_PRINT_MATRIX, 1
    .else
    .equ LU_PRINT_MATRIX, 0
    .endif
    .endif

    .equ LU_MAX_B, 128              # the kernels' unrolled chunks (lu_kernels.s)
    .equ LU_MAX_N, 4096
    .equ LU_MAX_BLOCKS, 65535       # the step field of the SR message ids
    .equ LU_STACK_BYTES, 65536      # tile.stack_bytes, the default
    .equ LU_EXIT, 93
    .equ LU_PRINT_INT, 0x5c00
    .equ LU_PRINT_CHAR, 0x5c02
    .equ LU_PRINT_STRING, 0x5c03
    .equ LU_PRINT_DOUBLE, 0x5c04

# The kernels are generated for B; a B out of range is reported at run
# time (lu_setup), so they are generated for 1 then.
    .if (LU_B >= 1) && (LU_B <= LU_MAX_B)
    .equ LU_KB, LU_B
    .else
    .equ LU_KB, 1
    .endif
    .equ LU_BLOCK_BYTES, 8 * LU_KB * LU_KB
    .equ LU_BLOCK_WORDS, 2 * LU_KB * LU_KB

    .include "lu_kernels.s"

    .include "lu_report.s"

    .text

# lu_main(a0 = the version's factorization, a1 = its gather into node 0's
# lu_matrix, a2 = its name), from _start with the boot stack: the whole
# program. The timed region runs from the barrier after generation until
# node 0 knows every tile has finished its blocks (the barrier after the
# last iteration); the gather, the checks and the report come after it.
lu_main:
    mv s0, a0
    mv s1, a1
    mv s2, a2
    addi a0, sp, 0
    call lu_setup
    call lu_generate
    call SCMPBarrier
    csrr s3, cycle              # the timed region starts
    jalr s0
    call SCMPBarrier
    csrr t0, cycle
    sub t0, t0, s3
    sw t0, lu_cycles, t1
    jalr s1
    lw t0, lu_node
    bnez t0, 1f                 # the others' blocks stay for node 0's requests
    mv a0, s2
    call lu_finish
1:  endt

# lu_setup(a0 = the initial sp of context 0): fills the lu_* words below
# and lays out the heap; on bad parameters node 0 prints why and exits
# with code 2 (the other nodes end their thread).
lu_setup:
    csrr t0, nodeid
    csrr t1, meshw
    csrr t2, meshh
    sw t0, lu_node, t3
    sw t1, lu_w, t3
    sw t2, lu_h, t3
    remu t3, t0, t1
    sw t3, lu_x, t4
    divu t3, t0, t1
    sw t3, lu_y, t4
    li t3, LU_B
    la a1, lu_error_b
    blez t3, lu_setup_error
    li t4, LU_MAX_B
    bgt t3, t4, lu_setup_error
    li t4, LU_N
    la a1, lu_error_n
    blez t4, lu_setup_error
    li t5, LU_MAX_N
    bgt t4, t5, lu_setup_error
    remu t5, t4, t3
    bnez t5, lu_setup_error
    divu t4, t4, t3             # nb
    la a1, lu_error_blocks
    li t5, LU_MAX_BLOCKS
    bgtu t4, t5, lu_setup_error
    sw t4, lu_nb, t5
    lw t3, lu_y                 # lrows = #{I < nb: I mod H = y}
    sub t5, t4, t3
    add t5, t5, t2
    addi t5, t5, -1
    divu t5, t5, t2
    sw t5, lu_lrows, t6
    lw t3, lu_x
    sub t5, t4, t3
    add t5, t5, t1
    addi t5, t5, -1
    divu t5, t5, t1
    sw t5, lu_lcols, t6
    # The heap, from lu_matrix: node 0's copy of the whole matrix (n² doubles
    # in the model's block layout), the node's blocks (lrows x lcols,
    # column-major by block), the D, L and U buffers, the AM flags (lrows +
    # lcols words, padded), node 0's rhs and solve vectors (n doubles each).
    la t3, lu_matrix
    lw t0, lu_node
    bnez t0, 1f
    li t4, LU_N * LU_N * 8
    add t3, t3, t4
1:  sw t3, lu_blocks, t4
    sw t3, lu_blocks_ptr, t4
    lw t4, lu_lrows
    lw t5, lu_lcols
    mul t6, t4, t5
    li a2, LU_BLOCK_BYTES
    mul t6, t6, a2
    add t3, t3, t6
    sw t3, lu_dbuf, t6
    add t3, t3, a2
    sw t3, lu_lbuf, t6
    mul t6, t4, a2
    add t3, t3, t6
    sw t3, lu_ubuf, t6
    mul t6, t5, a2
    add t3, t3, t6
    sw t3, lu_flags, t6
    add t6, t4, t5
    addi t6, t6, 2
    andi t6, t6, -2
    slli t6, t6, 2
    add t3, t3, t6
    bnez t0, 2f
    sw t3, lu_rhs, t6
    li t6, LU_N * 8
    add t3, t3, t6
    sw t3, lu_yvec, t5
    add t3, t3, t6
2:  csrr t0, nctx               # the heap's end must stay below the stacks
    li t1, LU_STACK_BYTES
    mul t0, t0, t1
    sub t0, a0, t0
    la a1, lu_error_memory
    bgtu t3, t0, lu_setup_error
    ret

# lu_setup_error(a1 = message): node 0 prints "lu: message" and exits with
# code 2; the other nodes end their thread.
    .globl lu_setup_error
lu_setup_error:
    lw t0, lu_node
    beqz t0, 1f
    endt
1:  la a0, lu_error_text
    li a7, LU_PRINT_STRING
    ecall
    mv a0, a1
    ecall
    li a0, '\n'
    li a7, LU_PRINT_CHAR
    ecall
    li a0, 2
    li a7, LU_EXIT
    ecall

# LU_RAND out: one lrand48 step (spec section 5): X = 0x5DEECE66D X + 0xB
# mod 2^48, out = X >> 17. X is s0 (low 32 bits) and s1 (high 16); s2 holds
# 0xDEECE66D, s3 0xFFFF. t0..t2 clobbered.
.macro LU_RAND out
    mul t0, s2, s0
    mulhu t1, s2, s0
    mul t2, s2, s1
    add t1, t1, t2
    slli t2, s0, 2              # the multiplier's high part, 5, times low X
    add t2, t2, s0
    add t1, t1, t2
    addi s0, t0, 0xB
    sltu t2, s0, t0             # the carry into the high part
    add t1, t1, t2
    and s1, t1, s3
    slli \out, s1, 15
    srli t2, s0, 17
    or \out, \out, t2
.endm

# lu_generate(): SPLASH-2's InitA over the whole stream, column j outer and
# row i inner: A(i,j) = lrand48() / 32767.0, times 10.0 on the diagonal.
# Every node draws every value and keeps its blocks; node 0 also sums
# rhs_i = sum over j of A(i,j) (ascending j) for the solve check.
# s4 = J, s5 = jj (column j = J B + jj), s6 = I, s7 = the segment's
# destination (0: not ours), s8 = 1 on node 0, s9 = the row's rhs,
# s10 = ii, s11 = the diagonal's ii in this segment (or -1).
lu_generate:
    FRAME_ENTER
    li s0, 0x1330E              # srand48(1): X = 1 << 16 | 0x330E
    li s1, 0
    li s2, 0xDEECE66D
    li s3, 0xFFFF
    lw t0, lu_node
    seqz s8, t0
    li t0, 32767                # ft8 = 32767.0, ft9 = 10.0
    fcvt.d.w ft8, t0
    li t0, 10
    fcvt.d.w ft9, t0
    beqz s8, 1f
    lw t0, lu_rhs               # rhs = 0
    li t1, LU_N * 8
    add t1, t1, t0
    fcvt.d.w ft0, zero
0:  fsd ft0, 0(t0)
    addi t0, t0, 8
    bne t0, t1, 0b
1:  li s4, 0
2:  li s5, 0
3:  lw s9, lu_rhs
    li s6, 0
4:  li s7, 0                    # the segment: rows I B .. I B + B - 1
    lw t0, lu_w
    remu t1, s4, t0
    lw t2, lu_x
    bne t1, t2, 5f
    lw t0, lu_h
    remu t1, s6, t0
    lw t2, lu_y
    bne t1, t2, 5f
    divu a0, s6, t0             # ours: block (I / H, J / W), column jj
    lw t0, lu_w
    divu a1, s4, t0
    call lu_block
    li t0, 8 * LU_KB
    mul t0, t0, s5
    add s7, a0, t0
5:  li s11, -1
    bne s6, s4, 6f
    mv s11, s5
6:  bnez s7, 7f
    bnez s8, 7f
    li s10, LU_B                # neither ours nor node 0's: only the steps
65: LU_RAND t3
    addi s10, s10, -1
    bnez s10, 65b
    j 9f
7:  li s10, 0
71: LU_RAND t3
    fcvt.d.wu ft0, t3
    fdiv.d ft0, ft0, ft8
    bne s10, s11, 72f
    fmul.d ft0, ft0, ft9
72: beqz s7, 73f
    fsd ft0, 0(s7)
    addi s7, s7, 8
73: beqz s8, 74f
    fld ft1, 0(s9)
    fadd.d ft1, ft1, ft0
    fsd ft1, 0(s9)
74: addi s9, s9, 8
    addi s10, s10, 1
    li t0, LU_B
    bne s10, t0, 71b
    addi s9, s9, -8 * LU_KB     # s9 advances once per segment below
9:  addi s9, s9, 8 * LU_KB
    addi s6, s6, 1
    lw t0, lu_nb
    bltu s6, t0, 4b
    addi s5, s5, 1
    li t0, LU_B
    bltu s5, t0, 3b
    addi s4, s4, 1
    lw t0, lu_nb
    bltu s4, t0, 2b
    FRAME_LEAVE

    .include "lu_steps.s"

    .section .rodata
lu_error_text: .asciz "lu: "
lu_error_b: .asciz "B (LU_B) must be 1 to 128 (the block kernels are unrolled for it)"
lu_error_n: .asciz "n (LU_N) must be a positive multiple of B (LU_B), at most 4096"
lu_error_blocks: .asciz "n / B is more than 65535 (the step field of the message ids)"
lu_error_memory: .asciz "node 0's copy of the matrix (n² doubles) and a tile's blocks and buffers do not fit below the contexts' stacks: use a smaller n or more tile.memory_bytes"

    .bss
    .p2align 3
    .globl lu_checksum
lu_checksum: .zero 8    # node 0: the sum of all entries, column-major
    .globl lu_solve_error
lu_solve_error: .zero 8 # node 0: max |y - 1| of the solve check
    .globl lu_cycles
lu_cycles: .zero 4      # node 0: cycles of the timed region
lu_node: .zero 4
lu_w: .zero 4
lu_h: .zero 4
lu_x: .zero 4
lu_y: .zero 4
lu_nb: .zero 4          # blocks per side
lu_lrows: .zero 4       # our block rows (I = y, y + H, ...) and columns
lu_lcols: .zero 4
lu_blocks: .zero 4      # heap addresses (lu_setup)
    .globl lu_blocks_ptr
lu_blocks_ptr: .zero 4  # our blocks' address, read by other nodes' requests
lu_dbuf: .zero 4
lu_lbuf: .zero 4        # L_IK of our row li at lbuf + li B² 8
lu_ubuf: .zero 4        # U_KJ of our column lj at ubuf + lj B² 8
lu_flags: .zero 4       # AM: a flag per L buffer, then per U buffer
lu_rhs: .zero 4
lu_yvec: .zero 4
# The current iteration (lu_iteration):
lu_k: .zero 4
lu_xk: .zero 4          # D's owner (xk, yk) = (K mod W, K mod H)
lu_yk: .zero 4
lu_first_i: .zero 4     # our first block row (column) after K; >= nb: none
lu_first_j: .zero 4
lu_is_downer: .zero 4   # we own D
lu_need_d: .zero 4      # we own a perimeter block but not D
lu_need_l: .zero 4      # we need the L_IK of our rows from (xk, y)
lu_need_u: .zero 4      # we need the U_KJ of our columns from (x, yk)
lu_divide_callback: .zero 4
    .text

# lu_gather(a0 = fetch): node 0 copies every block (I, J) into its lu_matrix
# with fetch(a0 = the owner, a1 = the block's place in lu_matrix, a2 = its
# offset in the owner's storage, a3 = I, a4 = J), which returns once the
# block is there. Not timed; the other nodes return at once and serve.
# s0 = fetch, s1 = J, s2 = I.
lu_gather:
    FRAME_ENTER
    mv s0, a0
    lw t0, lu_node
    bnez t0, 3f
    li s1, 0
1:  li s2, 0
2:  mv a0, s2
    mv a1, s1
    call lu_owner_offset
    mv s3, a0
    li t0, LU_KB
    mul a0, s2, t0
    mul a1, s1, t0
    call lu_element
    mv s4, a0
    mv a0, s2
    mv a1, s1
    call lu_owner
    mv a1, s4
    mv a2, s3
    mv a3, s2
    mv a4, s1
    jalr s0
    addi s2, s2, 1
    lw t0, lu_nb
    bltu s2, t0, 2b
    addi s1, s1, 1
    bltu s1, t0, 1b
3:  FRAME_LEAVE
