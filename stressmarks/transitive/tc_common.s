# tc_common.s: what both Transitive Closure programs share (tc_am.s,
# tc_sr.s include it after their messaging library): the parameters, the
# decomposition and memory layout, the input generation, the relaxation
# kernel and the partial sums (the report is in tc_report.s). stressmarks-spec.md section 4;
# docs/libraries.md and the header of tc_am.s describe the programs.

# Parameters (the spec's defaults; override with --defsym NAME=VALUE).
    .ifndef TC_SEED
    .equ TC_SEED, -1
    .endif
    .ifndef TC_N
    .equ TC_N, 500
    .endif
    .ifndef TC_M
    .equ TC_M, 2500
    .endif
    .ifndef TC_WMAX
    .equ TC_WMAX, 255
    .endif

    .equ TC_NO_PATH, 0x7fffffff
    .equ TC_STACK_BYTES, 65536      # tile.stack_bytes, the default
    .equ TC_MAX_N, 65535            # the step field of the SR message ids
    .equ TC_EXIT, 93
    .equ TC_PRINT_INT, 0x5c00
    .equ TC_PRINT_CHAR, 0x5c02
    .equ TC_PRINT_STRING, 0x5c03

# The DIS generator (spec section 1).
    .include "../lib/dis_rng.s"
    .include "tc_report.s"

# TC_ENTER / TC_LEAVE: the frame of a routine that keeps the geometry in
# registers: ra and s0..s11 saved (an 80-byte frame; 0(sp)..27(sp) are the
# routine's own), s1 = x, s2 = y, s3 = W, s4 = H, s5 = lc, s6 = lr.
.macro TC_ENTER
    FRAME_ENTER
    lw s1, tc_x
    lw s2, tc_y
    lw s3, tc_w
    lw s4, tc_h
    lw s5, tc_lc
    lw s6, tc_lr
.endm
.macro TC_LEAVE
    FRAME_LEAVE
.endm

    .text

# tc_main(a0 = the version's steps, a1 = its gather, a2 = its name, a3 = 1
# if it needs W + H <= 18), from _start with the boot stack: the whole
# program, as the spec's section 0 times it. A version that defines
# TC_V_FINISH has tc_v_finish called on every node after the timed region
# (its own results; node 0 prints them before the report).
tc_main:
    mv s0, a0
    mv s1, a1
    mv s2, a2
    mv a1, a3
    addi a0, sp, 0
    call tc_setup
    call tc_generate
    call SCMPBarrier
    csrr s3, cycle              # the timed region starts
    jalr s0
    call tc_partials
    jalr s1
    .ifdef TC_V_FINISH
    csrr s4, cycle              # node 0: the timed region ends here
    call tc_v_finish            # the version's own results, untimed
    .endif
    lw t0, tc_node
    bnez t0, 1f
    .ifdef TC_V_FINISH
    mv t0, s4
    .else
    csrr t0, cycle
    .endif
    sub t0, t0, s3
    sw t0, tc_cycles, t1
    mv a0, s2
    call tc_report
1:  endt

# split(a0 = n, a1 = parts, a2 = p) -> a0 = floor(p n / parts), the first
# index of part p (stressmarks-spec section 0).
tc_split:
    mul a0, a0, a2
    divu a0, a0, a1
    ret

# tc_setup(a0 = the initial sp of context 0, a1 = 1 if the program's
# collective gather needs W + H <= 18): fills the tc_* words below and lays
# out the heap; on bad parameters node 0 prints why and exits with code 2
# (the other nodes end their thread).
tc_setup:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    mv s0, a0
    mv s1, a1
    csrr t0, nodeid
    csrr t1, meshw
    csrr t2, meshh
    sw t0, tc_node, t3
    sw t1, tc_w, t3
    sw t2, tc_h, t3
    remu t3, t0, t1
    sw t3, tc_x, t4
    divu t3, t0, t1
    sw t3, tc_y, t4
    li t0, TC_N
    la a0, tc_error_n_small
    bltu t0, t1, tc_setup_error     # every node needs a row and a column
    bltu t0, t2, tc_setup_error
    la a0, tc_error_n_large
    li t3, TC_MAX_N
    bgtu t0, t3, tc_setup_error
    li t3, TC_M
    la a0, tc_error_m
    bltz t3, tc_setup_error
    li t3, TC_WMAX
    la a0, tc_error_wmax
    bltz t3, tc_setup_error
    li t4, 0x7ffffffe               # a weight must not be NO_PATH
    bgeu t3, t4, tc_setup_error
    beqz s1, 1f
    add t3, t1, t2
    li t4, 18
    la a0, tc_error_mesh
    bgtu t3, t4, tc_setup_error
1:  li a0, TC_N                     # rows split(n, H, y)
    lw a1, tc_h
    lw a2, tc_y
    call tc_split
    sw a0, tc_r0, t0
    li a0, TC_N
    lw a1, tc_h
    lw a2, tc_y
    addi a2, a2, 1
    call tc_split
    lw t0, tc_r0
    sub a0, a0, t0
    sw a0, tc_lr, t0
    li a0, TC_N                     # columns split(n, W, x)
    lw a1, tc_w
    lw a2, tc_x
    call tc_split
    sw a0, tc_c0, t0
    li a0, TC_N
    lw a1, tc_w
    lw a2, tc_x
    addi a2, a2, 1
    call tc_split
    lw t0, tc_c0
    sub a0, a0, t0
    sw a0, tc_lc, t0
    # The heap, the same addresses on every node up to the block:
    # results (2n), row gather ((W-1) rmax), column gather ((H-1) cmax),
    # row buffers (2 cmax), column buffers (2 rmax), then the node's block.
    lw t1, tc_w
    lw t2, tc_h
    li t0, TC_N
    add t3, t0, t2                  # rmax = ceil(n / H)
    addi t3, t3, -1
    divu t3, t3, t2
    add t4, t0, t1                  # cmax = ceil(n / W)
    addi t4, t4, -1
    divu t4, t4, t1
    sw t3, tc_rmax, t5
    sw t4, tc_cmax, t5
    la t5, tc_result
    slli t0, t0, 3
    add t5, t5, t0
    sw t5, tc_gather_rows, t6
    addi t6, t1, -1
    mul t6, t6, t3
    slli t6, t6, 2
    add t5, t5, t6
    sw t5, tc_gather_cols, t6
    addi t6, t2, -1
    mul t6, t6, t4
    slli t6, t6, 2
    add t5, t5, t6
    sw t5, tc_rowbuf, t6
    slli t6, t4, 3
    add t5, t5, t6
    sw t5, tc_colbuf, t6
    slli t6, t3, 3
    add t5, t5, t6
    sw t5, tc_block, t6
    sw t5, tc_block_ptr, t6
    lw t0, tc_lr
    lw t1, tc_lc
    mul t0, t0, t1
    slli t0, t0, 2
    add t5, t5, t0                  # the heap's end
    csrr t0, nctx
    li t1, TC_STACK_BYTES
    mul t0, t0, t1
    sub t0, s0, t0                  # below the contexts' stacks
    la a0, tc_error_memory
    bgtu t5, t0, tc_setup_error
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    addi sp, sp, 16
    ret
tc_setup_error:
    lw t0, tc_node
    beqz t0, 1f
    endt
1:  mv t0, a0
    la a0, tc_error_text
    li a7, TC_PRINT_STRING
    ecall
    mv a0, t0
    ecall
    li a0, '\n'
    li a7, TC_PRINT_CHAR
    ecall
    li a0, 2
    li a7, TC_EXIT
    ecall

# tc_generate(): the node's block of D from the whole random stream (every
# node draws all m edges and keeps those in its rows and columns).
tc_generate:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    lw t0, tc_block                 # every entry NO_PATH, the diagonal too
    lw t1, tc_lr
    lw t2, tc_lc
    mul t1, t1, t2
    slli t1, t1, 2
    add t1, t1, t0
    li t2, TC_NO_PATH
    beq t0, t1, 2f
1:  sw t2, 0(t0)
    addi t0, t0, 4
    bne t0, t1, 1b
2:  li a0, TC_SEED
    la a1, tc_rng
    call ran1_init
    li s0, TC_M
3:  beqz s0, 5f
    la a0, tc_rng                   # a = randInt(0, n-1)
    li a1, 0
    li a2, TC_N - 1
    call rand_int
    mv s1, a0
    la a0, tc_rng                   # b = randInt(0, n-1)
    li a1, 0
    li a2, TC_N - 1
    call rand_int
    mv s2, a0
    la a0, tc_rng                   # w = randInt(0, wmax)
    li a1, 0
    li a2, TC_WMAX
    call rand_int
    addi s0, s0, -1
    lw t0, tc_r0                    # D[b][a] = w when it is ours
    sub t0, s2, t0
    lw t1, tc_lr
    bgeu t0, t1, 3b
    lw t2, tc_c0
    sub t2, s1, t2
    lw t3, tc_lc
    bgeu t2, t3, 3b
    mul t0, t0, t3
    add t0, t0, t2
    slli t0, t0, 2
    lw t1, tc_block
    add t0, t0, t1
    sw a0, 0(t0)
    j 3b
5:  lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    addi sp, sp, 32
    ret

# tc_relax(a0 = row k over the node's columns (lc words), a1 = column k over
# its rows, a2 = that column's stride in bytes): for every entry of the
# block, D[i][j] = min(D[i][j], D[i][k] + D[k][j]) (u32; both terms are at
# most NO_PATH, so the sum cannot wrap). Unrolled by two, the rare update
# out of line.
tc_relax:
    lw a3, tc_block
    lw a4, tc_lr
    lw a5, tc_lc
    beqz a4, 9f
    andi a6, a5, 1                  # an odd column first
    slli a5, a5, 2                  # bytes per block row
1:  lw t2, 0(a1)                    # D[i][k]
    add a1, a1, a2
    mv t3, a0
    add t4, a3, a5
    beqz a6, 3f
    lw t0, 0(a3)
    lw t1, 0(t3)
    add t1, t1, t2
    bgeu t1, t0, 2f
    sw t1, 0(a3)
2:  addi a3, a3, 4
    addi t3, t3, 4
3:  beq a3, t4, 8f
4:  lw t0, 0(a3)
    lw t1, 0(t3)
    lw t5, 4(a3)
    lw t6, 4(t3)
    add t1, t1, t2
    add t6, t6, t2
    bltu t1, t0, 6f
5:  bltu t6, t5, 7f
55: addi a3, a3, 8
    addi t3, t3, 8
    bne a3, t4, 4b
8:  addi a4, a4, -1
    bnez a4, 1b
9:  ret
6:  sw t1, 0(a3)
    j 5b
7:  sw t6, 4(a3)
    j 55b

# tc_partials(): the u32 sums of the block's entries other than NO_PATH,
# per row into tc_result rows[r0 ..] and per column into cols[c0 ..].
tc_partials:
    lw t0, tc_lc
    lw t1, tc_c0
    li t2, TC_N
    add t1, t1, t2
    slli t1, t1, 2
    la a1, tc_result
    add a1, a1, t1                  # cols + c0
    mv t1, a1
    slli t3, t0, 2
    add t3, t3, a1
    beq t1, t3, 2f
1:  sw zero, 0(t1)
    addi t1, t1, 4
    bne t1, t3, 1b
2:  lw t1, tc_r0
    slli t1, t1, 2
    la a0, tc_result
    add a0, a0, t1                  # rows + r0
    lw a2, tc_block
    lw a3, tc_lr
    li a4, TC_NO_PATH
    beqz a3, 6f
3:  li t4, 0                        # this row's sum
    mv t5, a1
4:  beq t5, t3, 5f
    lw t6, 0(a2)
    addi a2, a2, 4
    addi t5, t5, 4
    beq t6, a4, 4b
    add t4, t4, t6
    lw t1, -4(t5)
    add t1, t1, t6
    sw t1, -4(t5)
    j 4b
5:  sw t4, 0(a0)
    addi a0, a0, 4
    addi a3, a3, -1
    bnez a3, 3b
6:  ret

# tc_add_words(a0 = destination, a1 = source, a2 = count): dst[i] += src[i]
tc_add_words:
    beqz a2, 2f
1:  lw t0, 0(a0)
    lw t1, 0(a1)
    add t0, t0, t1
    sw t0, 0(a0)
    addi a0, a0, 4
    addi a1, a1, 4
    addi a2, a2, -1
    bnez a2, 1b
2:  ret

# tc_gather_row_slot(a0 = x) -> a0: where (x, y)'s row sums land on (0, y)
tc_gather_row_slot:
    addi a0, a0, -1
    lw t1, tc_rmax
    mul a0, a0, t1
    slli a0, a0, 2
    lw t1, tc_gather_rows
    add a0, a0, t1
    ret

# tc_gather_col_slot(a0 = y) -> a0: where (x, y)'s column sums land on (x, 0)
tc_gather_col_slot:
    addi a0, a0, -1
    lw t1, tc_cmax
    mul a0, a0, t1
    slli a0, a0, 2
    lw t1, tc_gather_cols
    add a0, a0, t1
    ret

# tc_row_sums() -> a0 = &rows[r0]; tc_col_sums() -> a0 = &cols[c0]
tc_row_sums:
    lw t0, tc_r0
    slli t0, t0, 2
    la a0, tc_result
    add a0, a0, t0
    ret
tc_col_sums:
    lw t0, tc_c0
    li t1, TC_N
    add t0, t0, t1
    slli t0, t0, 2
    la a0, tc_result
    add a0, a0, t0
    ret

    .section .rodata
tc_error_text: .asciz "transitive closure: "
tc_error_n_small: .asciz "n (TC_N) is smaller than the mesh's width or height: every tile needs a row and a column"
tc_error_n_large: .asciz "n (TC_N) is more than 65535 (the step field of the message ids)"
tc_error_m: .asciz "m (TC_M) is negative"
tc_error_wmax: .asciz "wmax (TC_WMAX) is negative or reaches NO_PATH (2^31 - 1)"
tc_error_mesh: .asciz "the send-and-receive version needs width + height <= 18 (its gather posts 2 (W + H - 2) receives on node 0, the receive table holds 32)"
tc_error_memory: .asciz "the block and buffers do not fit below the contexts' stacks: use more tiles or a smaller n"

    .bss
    .p2align 2
tc_node: .zero 4
tc_w: .zero 4
tc_h: .zero 4
tc_x: .zero 4
tc_y: .zero 4
tc_r0: .zero 4          # the node's rows r0 .. r0+lr-1
tc_lr: .zero 4
tc_c0: .zero 4          # and columns c0 .. c0+lc-1
tc_lc: .zero 4
tc_rmax: .zero 4        # the most rows (columns) a node has
tc_cmax: .zero 4
tc_gather_rows: .zero 4 # heap addresses (tc_setup)
tc_gather_cols: .zero 4
tc_rowbuf: .zero 4
tc_colbuf: .zero 4
tc_block: .zero 4
    .globl tc_block_ptr
tc_block_ptr: .zero 4   # the block's address, read by other nodes' requests (AM)
    .globl tc_cycles
tc_cycles: .zero 4      # node 0: cycles of the timed region
tc_rng: .zero 136       # the generator's state (34 words)
    .text
