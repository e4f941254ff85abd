# nb_common.s: what both Neighborhood programs share (nb_am.s and nb_sr.s
# include it after their messaging library): the parameters, the
# decomposition and memory layout, the driver of the timed region and row
# fetching by runs. The image is drawn in nb_draw.s, pairs are counted and
# histograms cleared and added in nb_count.s, entropy and energy are
# computed in nb_texture.s, node 0 prints in nb_report.s.
# stressmarks-spec.md section 2; docs/stressmarks.md and the headers of
# nb_am.s and nb_sr.s describe the programs.
#
# A version file provides (standard calling convention):
#   nb_v_fetch_run(a0 = owner, a1 = first row, a2 = rows, a3 = class)
#       starts fetching rows first .. first+rows-1 (all owned by owner) into
#       their place in the local image;
#   nb_v_fetch_wait(a0 = first row, a1 = rows, a2 = class)
#       returns once they are there;
#   nb_v_prepare(a0 = class): what the class needs before its counting
#       starts anywhere (called before the previous class's reduction);
#   nb_v_exchange(a0 = class): combines the histograms: returns once this
#       node's bins hold every node's counts and no other node still needs
#       this node's histograms;
#   nb_v_finish(): only if the version defines NB_V_FINISH: its own
#       results, after the timed region (before node 0's report);
#   nb_version: the version's name (a string);
#   nb_heap: the end of everything in memory (the heap starts there).

# Parameters (the spec's defaults; override with --defsym NAME=VALUE).
    .ifndef NB_SEED
    .equ NB_SEED, -1
    .endif
    .ifndef NB_BITS
    .equ NB_BITS, 11
    .endif
    .ifndef NB_DIM
    .equ NB_DIM, 1536
    .endif
    .ifndef NB_LINES
    .equ NB_LINES, 256
    .endif
    .ifndef NB_TMIN
    .equ NB_TMIN, 8
    .endif
    .ifndef NB_TMAX
    .equ NB_TMAX, 64
    .endif
    .ifndef NB_DS
    .equ NB_DS, 4
    .endif
    .ifndef NB_DL
    .equ NB_DL, 16
    .endif

# How the histograms are combined, chosen when the program is assembled (a
# profile's [profile.programs], or --defsym; the version files read it):
# - NB_ONE_PHASE = 0 (the default): class by class, as the spec orders the
#   work: count a class, combine its two histograms (nb_v_exchange), its
#   entropy and energy, clear, the next class;
# - 1: one histogram distribution phase (thesis 6.2.1: "once all of the
#   nodes complete the calculations for their rows, the histograms on each
#   node must be combined"; "during the histogram distribution phase, each
#   node spawns a local thread to send the correct histogram portions to
#   every other node"): every class is counted into its own pair of
#   histograms, then nb_v_exchange(NB_PHASE) combines all 16 at once, a
#   node sending each other node its sections of all 16 in one message
#   (a sendm part per section), then every class's entropy and energy.
#   Memory: 8 pairs of histograms and slots 8 times as large (nb_setup
#   stops with nb_error_memory where they do not fit: at 15 bits they
#   take about 8 MB). Counts, and so the results, are the same.
    .ifndef NB_ONE_PHASE
    .equ NB_ONE_PHASE, 0
    .endif
    .equ NB_CLASSES, 8
    .equ NB_PHASE, NB_CLASSES       # nb_v_exchange's class: every class
    .equ NB_MAX_PIXEL, (1 << NB_BITS) - 1
    .equ NB_BINS, (1 << (NB_BITS + 1)) - 1
    # Both histograms, sum then difference, rounded up to 2^(bits+2) words
    # so that the clearing loop runs whole rounds of 8 words.
    .equ NB_HIST_WORDS, 1 << (NB_BITS + 2)
    # A local image row: dim 16-bit pixels and a spare word, where the
    # active-messages version's row message leaves its marker.
    .equ NB_ROW_BYTES, NB_DIM * 2 + 4
    .equ NB_ROW_WORDS, NB_DIM / 2 + 1
    .if NB_DS > NB_DL
    .equ NB_MAX_DY, NB_DS           # the farthest partner row
    .else
    .equ NB_MAX_DY, NB_DL
    .endif
    .equ NB_FETCH_BATCH, 8          # row runs in flight at once
    .equ NB_STACK_BYTES, 65536      # tile.stack_bytes, the default
    .equ NB_EXIT, 93
    .equ NB_PRINT_INT, 0x5c00
    .equ NB_PRINT_HEX, 0x5c01
    .equ NB_PRINT_CHAR, 0x5c02
    .equ NB_PRINT_STRING, 0x5c03
    .equ NB_PRINT_DOUBLE, 0x5c04

# The DIS generator (spec section 1).
    .include "../lib/dis_rng.s"
    .include "nb_draw.s"
    .include "nb_count.s"
    .include "nb_texture.s"
    .include "nb_report.s"

    .text

# nb_main, from _start with the boot stack: the whole program. The timed
# region runs from the barrier after generation until node 0 holds class
# 7's entropy and energy (stressmarks-spec section 0).
nb_main:
    mv a0, sp
    call nb_setup
    call nb_generate
    li a0, 0
    call nb_prepare_class
    call SCMPBarrier
    csrr s3, cycle              # the timed region starts
    .if NB_ONE_PHASE
    li s0, 0                    # count every class, fetching the next
1:  mv a0, s0                   # class's rows after each
    call nb_select_class
    mv a0, s0
    call nb_count_class
    addi s0, s0, 1
    li t0, NB_CLASSES
    bgeu s0, t0, 2f
    mv a0, s0
    call nb_prepare_class
    j 1b
2:  li a0, NB_PHASE             # the one distribution phase
    call nb_v_exchange
    li s0, 0
3:  mv a0, s0                   # every class's entropy and energy
    call nb_select_class
    mv a0, s0
    call nb_texture_partial
    mv a0, s0
    call nb_reduce_class
    addi s0, s0, 1
    li t0, NB_CLASSES
    bltu s0, t0, 3b
    .else
    li s0, 0
1:  mv a0, s0
    call nb_count_class
    mv a0, s0
    call nb_v_exchange
    mv a0, s0
    call nb_texture_partial
    call nb_clear_histograms
    addi s1, s0, 1
    li t0, NB_CLASSES
    bgeu s1, t0, 2f
    mv a0, s1                   # the next class's rows and receives,
    call nb_prepare_class       # before this class's reduction lets
2:  mv a0, s0                   # anyone count it
    call nb_reduce_class
    mv s0, s1
    li t0, NB_CLASSES
    bltu s0, t0, 1b
    .endif
    csrr t0, cycle
    sub t0, t0, s3
    sw t0, nb_cycles, t1
    call nb_reduce_checks       # the exact debug values, untimed
    .ifdef NB_V_FINISH
    call nb_v_finish            # the version's own results, untimed
    .endif
    lw t0, nb_node
    bnez t0, 3f
    call nb_report
3:  endt

# split(a0 = n, a1 = parts, a2 = p) -> a0 = floor(p n / parts), the first
# index of part p (stressmarks-spec section 0).
nb_split:
    mul a0, a0, a2
    divu a0, a0, a1
    ret

    .if NB_ONE_PHASE
# nb_select_class(a0 = class): points nb_sum and nb_diff at the class's
# pair of histograms (NB_ONE_PHASE), where counting, adding and entropy
# find them. The sending threads read nb_hist instead (the main thread
# selects while they send).
nb_select_class:
    li t0, 4 * NB_HIST_WORDS
    mul t0, t0, a0
    lw t1, nb_hist
    add t0, t0, t1
    sw t0, nb_sum, t1
    li t1, 4 * NB_BINS
    add t0, t0, t1
    sw t0, nb_diff, t1
    ret
    .endif

# nb_bins_of(a0 = node) -> a0 = its first bin, a1 = its bin count
nb_bins_of:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, a0
    li a0, NB_BINS
    lw a1, nb_tiles
    addi a2, s0, 1
    call nb_split
    sw a0, 4(sp)
    li a0, NB_BINS
    lw a1, nb_tiles
    mv a2, s0
    call nb_split
    lw a1, 4(sp)
    sub a1, a1, a0
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret

# nb_row_owner(a0 = row) -> a0 = the node owning it
nb_row_owner:
    addi a0, a0, 1
    lw t0, nb_tiles
    mul a0, a0, t0
    addi a0, a0, -1
    li t0, NB_DIM
    divu a0, a0, t0
    ret

# nb_class_offsets(a0 = class) -> a0 = dx, a1 = dy
nb_class_offsets:
    slli a0, a0, 3
    la t0, nb_class_table
    add t0, t0, a0
    lw a0, 0(t0)
    lw a1, 4(t0)
    ret

# nb_setup(a0 = the initial sp of context 0): checks the parameters and
# the mesh, fills the nb_* words below and lays out the heap; on a bad
# value node 0 prints why and exits with code 2 (the others end).
nb_setup:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, a0
    csrr t0, nodeid
    csrr t1, ntiles
    sw t0, nb_node, t2
    sw t1, nb_tiles, t2
    la a0, nb_error_bits
    li t2, NB_BITS
    li t3, 7
    blt t2, t3, nb_setup_error
    li t3, 15
    bgt t2, t3, nb_setup_error
    la a0, nb_error_dim
    li t2, NB_DIM
    andi t3, t2, 1
    bnez t3, nb_setup_error
    li t3, 2
    blt t2, t3, nb_setup_error
    li t3, 4096
    bgt t2, t3, nb_setup_error
    la a0, nb_error_lines
    li t3, NB_LINES
    blez t3, nb_setup_error
    li t4, 65536
    bgt t3, t4, nb_setup_error
    la a0, nb_error_thickness
    li t3, NB_TMIN
    li t4, NB_TMAX
    blez t3, nb_setup_error
    bgt t3, t4, nb_setup_error
    bge t4, t2, nb_setup_error
    la a0, nb_error_distance
    li t3, NB_DS
    blez t3, nb_setup_error
    bge t3, t2, nb_setup_error
    li t3, NB_DL
    blez t3, nb_setup_error
    bge t3, t2, nb_setup_error
    la a0, nb_error_seed
    li t3, NB_SEED
    bgez t3, nb_setup_error
    li t4, -2147483647
    blt t3, t4, nb_setup_error
    la a0, nb_error_rows
    bgtu t1, t2, nb_setup_error     # every tile needs a row
    la a0, nb_error_bins
    li t3, NB_BINS
    bgtu t1, t3, nb_setup_error     # and a bin
    li a0, NB_DIM                   # rows split(dim, P, node)
    lw a1, nb_tiles
    lw a2, nb_node
    call nb_split
    sw a0, nb_r0, t0
    li a0, NB_DIM
    lw a1, nb_tiles
    lw a2, nb_node
    addi a2, a2, 1
    call nb_split
    sw a0, nb_r1, t0
    sw a0, nb_held, t0
    lw a0, nb_node
    call nb_bins_of
    sw a0, nb_b0, t0
    sw a1, nb_blen, t0
    # The heap, the image at the same address on every node: the image
    # (the most rows a node owns, plus the partner rows below them), both
    # histograms, one slot per other node for its counts of our bins
    # (sum, marker, difference, marker), and the version's records. With
    # NB_ONE_PHASE a pair of histograms per class, and a slot holds a
    # class's slot per class, class 0's first.
    la t0, nb_heap
    sw t0, nb_image, t1
    sw t0, nb_image_ptr, t1
    lw t1, nb_tiles
    li t2, NB_DIM
    add t3, t2, t1                  # rmax = ceil(dim / P)
    addi t3, t3, -1
    divu t3, t3, t1
    li t4, NB_MAX_DY
    add t3, t3, t4
    li t4, NB_ROW_BYTES
    mul t3, t3, t4
    add t0, t0, t3
    addi t0, t0, 7
    andi t0, t0, -8
    sw t0, nb_sum, t2
    li t3, 4 * NB_BINS
    add t3, t3, t0
    sw t3, nb_diff, t2
    li t3, 4 * NB_HIST_WORDS
    .if NB_ONE_PHASE
    sw t0, nb_hist, t2              # a pair of histograms per class
    li t3, 4 * NB_HIST_WORDS * NB_CLASSES
    .endif
    add t0, t0, t3
    sw t0, nb_slots, t2
    lw t3, nb_blen
    slli t3, t3, 3
    addi t3, t3, 8                  # (2 blen + 2) words
    .if NB_ONE_PHASE
    slli t3, t3, 3                  # a class's slot for each class
    .endif
    sw t3, nb_slot_bytes, t2
    addi t4, t1, -1
    mul t3, t3, t4
    add t0, t0, t3
    sw t0, nb_records, t2
    slli t4, t4, 5                  # 2 (P - 1) records of 16 bytes
    add t0, t0, t4
    csrr t1, nctx
    li t2, NB_STACK_BYTES
    mul t1, t1, t2
    sub t1, s0, t1                  # below the contexts' stacks
    la a0, nb_error_memory
    bgtu t0, t1, nb_setup_error
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret
nb_setup_error:
    lw t0, nb_node
    beqz t0, 1f
    endt
1:  mv t0, a0
    la a0, nb_error_text
    li a7, NB_PRINT_STRING
    ecall
    mv a0, t0
    ecall
    li a0, '\n'
    li a7, NB_PRINT_CHAR
    ecall
    li a0, 2
    li a7, NB_EXIT
    ecall

# nb_prepare_class(a0 = class): fetches the partner rows the class needs
# that are not here yet (from their owners, in runs of consecutive rows
# of one owner, NB_FETCH_BATCH runs in flight), then nb_v_prepare.
# Rows are fetched once and kept: at most max(ds, dl) rows below ours.
nb_prepare_class:
    addi sp, sp, -96
    sw ra, 92(sp)
    sw s0, 88(sp)
    sw s1, 84(sp)
    sw s2, 80(sp)
    sw s3, 76(sp)
    sw s4, 72(sp)
    mv s0, a0
    call nb_class_offsets
    lw t0, nb_r1                    # need rows up to min(r1 + dy, dim)
    add s1, t0, a1
    li t1, NB_DIM
    bleu s1, t1, 1f
    mv s1, t1
1:  lw s2, nb_held                  # the next row to fetch
    bgeu s2, s1, 6f
2:  li s3, 0                        # a batch: runs in 0(sp) .. 63(sp)
3:  bgeu s2, s1, 4f
    li t0, NB_FETCH_BATCH
    bgeu s3, t0, 4f
    mv a0, s2
    call nb_row_owner
    mv s4, a0
    li a0, NB_DIM                   # the owner's rows end here
    lw a1, nb_tiles
    addi a2, s4, 1
    call nb_split
    bleu a0, s1, 31f
    mv a0, s1
31: sub a2, a0, s2                  # rows in this run
    slli t0, s3, 3
    add t0, t0, sp
    sw s2, 0(t0)
    sw a2, 4(t0)
    add s2, s2, a2
    addi s3, s3, 1
    mv a0, s4
    lw a1, 0(t0)
    mv a3, s0
    call nb_v_fetch_run
    j 3b
4:  li s4, 0                        # wait for the batch
5:  bgeu s4, s3, 55f
    slli t0, s4, 3
    add t0, t0, sp
    lw a0, 0(t0)
    lw a1, 4(t0)
    mv a2, s0
    call nb_v_fetch_wait
    addi s4, s4, 1
    j 5b
55: bltu s2, s1, 2b
    sw s1, nb_held, t0
6:  mv a0, s0
    call nb_v_prepare
    lw ra, 92(sp)
    lw s0, 88(sp)
    lw s1, 84(sp)
    lw s2, 80(sp)
    lw s3, 76(sp)
    lw s4, 72(sp)
    addi sp, sp, 96
    ret

# nb_row_address(a0 = row) -> a0: where the row is in the local image
nb_row_address:
    lw t0, nb_r0
    sub a0, a0, t0
    li t0, NB_ROW_BYTES
    mul a0, a0, t0
    lw t0, nb_image
    add a0, a0, t0
    ret

    .section .rodata
    .p2align 2
# The pair classes (dx, dy) in output order: 0, 45, 90, 135 degrees at the
# short distance, then at the long one.
nb_class_table:
    .word NB_DS, 0, NB_DS, NB_DS, 0, NB_DS, -NB_DS, NB_DS
    .word NB_DL, 0, NB_DL, NB_DL, 0, NB_DL, -NB_DL, NB_DL
nb_error_text: .asciz "neighborhood: "
nb_error_bits: .asciz "bits (NB_BITS) is outside 7..15"
nb_error_dim: .asciz "dim (NB_DIM) is not an even number in 2..4096"
nb_error_lines: .asciz "lines (NB_LINES) is outside 1..65536"
nb_error_thickness: .asciz "the thickness needs 1 <= tmin <= tmax < dim (NB_TMIN, NB_TMAX)"
nb_error_distance: .asciz "the distances need 1 <= ds, dl < dim (NB_DS, NB_DL)"
nb_error_seed: .asciz "seed (NB_SEED) is outside -2147483647..-1"
nb_error_rows: .asciz "the mesh has more tiles than the image has rows (dim): every tile needs a row"
nb_error_bins: .asciz "the mesh has more tiles than a histogram has bins (2^(bits+1) - 1): every tile needs a bin"
    .if NB_ONE_PHASE
nb_error_memory: .asciz "the image rows and histograms do not fit below the contexts' stacks: one phase (NB_ONE_PHASE) keeps 16 histograms and their slots; use fewer bits, a smaller dim or more tiles"
    .else
nb_error_memory: .asciz "the image rows and histograms do not fit below the contexts' stacks: use more tiles or a smaller dim"
    .endif

    .bss
    .p2align 3
nb_node: .zero 4
nb_tiles: .zero 4
nb_r0: .zero 4          # the node's rows r0 .. r1-1
nb_r1: .zero 4
nb_held: .zero 4        # rows r1 .. held-1 (partners) are here too
nb_b0: .zero 4          # the node's bins b0 .. b0+blen-1
nb_blen: .zero 4
nb_image: .zero 4       # heap addresses (nb_setup)
nb_sum: .zero 4
nb_diff: .zero 4
nb_slots: .zero 4
nb_slot_bytes: .zero 4
nb_records: .zero 4
    .if NB_ONE_PHASE
nb_hist: .zero 4        # class 0's histograms; class c's 4 c NB_HIST_WORDS bytes on
    .endif
nb_count_rows: .zero 4
    .globl nb_image_ptr
nb_image_ptr: .zero 4   # the image's address, read by other nodes' requests (SR getBlock)
    .globl nb_cycles
nb_cycles: .zero 4      # node 0: cycles of the timed region
    .globl nb_result
nb_result: .zero 4 * 2 * NB_CLASSES     # entropy[8], then energy[8] (f32)
    .globl nb_check
nb_check: .zero 4 * 2 * NB_CLASSES      # sum_check[8], diff_check[8]
    .p2align 3
nb_partial: .zero 24    # this node's H, Es, Ed of the class (doubles)
nb_rng: .zero 136       # the generator's state (34 words)
    .text
