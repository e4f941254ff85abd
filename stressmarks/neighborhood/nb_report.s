# nb_report.s: what node 0 prints at the end of a Neighborhood run
# (included by nb_common.s, whose nb_* words and parameters it reads): a
# title line with the parameters, then one result a line, a name and its
# values, the form the stressmarks crate's `Printed` reads.

    .text

# nb_print_text(a0 = string)
nb_print_text:
    li a7, NB_PRINT_STRING
    ecall
    ret

# nb_print_param(a0 = label, a1 = value): "label value"
nb_print_param:
    li a7, NB_PRINT_STRING
    ecall
    mv a0, a1
    li a7, NB_PRINT_INT
    ecall
    ret

# nb_print_values(a0 = name, a1 = words, a2 = count, a3 = form): "name v0
# v1 ...\n"; form 0: f32 words as decimals (widened to double, which
# reads back exactly), 1: hexadecimal words, 2: decimal integers.
nb_print_values:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    sw s1, 4(sp)
    sw s2, 0(sp)
    mv s0, a1
    mv s1, a2
    mv s2, a3
    li a7, NB_PRINT_STRING
    ecall
1:  beqz s1, 4f
    li a0, ' '
    li a7, NB_PRINT_CHAR
    ecall
    bnez s2, 2f
    flw ft0, 0(s0)
    fcvt.d.s fa0, ft0
    li a7, NB_PRINT_DOUBLE
    ecall
    j 3f
2:  lw a0, 0(s0)
    li a7, NB_PRINT_HEX
    li t0, 1
    beq s2, t0, 21f
    li a7, NB_PRINT_INT
21: ecall
3:  addi s0, s0, 4
    addi s1, s1, -1
    j 1b
4:  li a0, '\n'
    li a7, NB_PRINT_CHAR
    ecall
    lw ra, 12(sp)
    lw s0, 8(sp)
    lw s1, 4(sp)
    lw s2, 0(sp)
    addi sp, sp, 16
    ret

# nb_report(): node 0's output. `entropy` and `energy` (8 values each, the
# classes in nb_class_table's order), the exact debug values `pairs`,
# `sum_check` and `diff_check`, and `timed_cycles`.
nb_report:
    addi sp, sp, -64
    sw ra, 60(sp)
    sw s0, 56(sp)
    la a0, nb_title_text
    call nb_print_text
    la a0, nb_version
    call nb_print_text
    la a0, nb_on_text
    call nb_print_text
    csrr a0, meshw
    li a7, NB_PRINT_INT
    ecall
    li a0, 'x'
    li a7, NB_PRINT_CHAR
    ecall
    csrr a0, meshh
    li a7, NB_PRINT_INT
    ecall
    la a0, nb_bits_text
    li a1, NB_BITS
    call nb_print_param
    la a0, nb_dim_text
    li a1, NB_DIM
    call nb_print_param
    la a0, nb_lines_text
    li a1, NB_LINES
    call nb_print_param
    la a0, nb_tmin_text
    li a1, NB_TMIN
    call nb_print_param
    la a0, nb_tmax_text
    li a1, NB_TMAX
    call nb_print_param
    la a0, nb_ds_text
    li a1, NB_DS
    call nb_print_param
    la a0, nb_dl_text
    li a1, NB_DL
    call nb_print_param
    la a0, nb_seed_text
    li a1, NB_SEED
    call nb_print_param
    li a0, '\n'
    li a7, NB_PRINT_CHAR
    ecall
    la a0, nb_entropy_text
    la a1, nb_result
    li a2, NB_CLASSES
    li a3, 0
    call nb_print_values
    la a0, nb_energy_text
    la a1, nb_result + 4 * NB_CLASSES
    li a2, NB_CLASSES
    li a3, 0
    call nb_print_values
    li s0, 0                        # N of each class, on the stack
1:  mv a0, s0
    call nb_class_offsets
    srai t0, a0, 31
    xor a0, a0, t0
    sub a0, a0, t0
    li t1, NB_DIM
    sub a0, t1, a0
    sub a1, t1, a1
    mul a0, a0, a1
    slli t0, s0, 2
    add t0, t0, sp
    sw a0, 0(t0)
    addi s0, s0, 1
    li t0, NB_CLASSES
    bltu s0, t0, 1b
    la a0, nb_pairs_text
    mv a1, sp
    li a2, NB_CLASSES
    li a3, 2
    call nb_print_values
    la a0, nb_sum_check_text
    la a1, nb_check
    li a2, NB_CLASSES
    li a3, 1
    call nb_print_values
    la a0, nb_diff_check_text
    la a1, nb_check + 4 * NB_CLASSES
    li a2, NB_CLASSES
    li a3, 1
    call nb_print_values
    la a0, nb_cycles_text
    la a1, nb_cycles
    li a2, 1
    li a3, 2
    call nb_print_values
    lw ra, 60(sp)
    lw s0, 56(sp)
    addi sp, sp, 64
    ret

    .section .rodata
nb_title_text: .asciz "neighborhood ("
nb_on_text: .asciz ") on "
nb_bits_text: .asciz ": bits "
nb_dim_text: .asciz ", dim "
nb_lines_text: .asciz ", lines "
nb_tmin_text: .asciz ", tmin "
nb_tmax_text: .asciz ", tmax "
nb_ds_text: .asciz ", ds "
nb_dl_text: .asciz ", dl "
nb_seed_text: .asciz ", seed "
nb_entropy_text: .asciz "entropy"
nb_energy_text: .asciz "energy"
nb_pairs_text: .asciz "pairs"
nb_sum_check_text: .asciz "sum_check"
nb_diff_check_text: .asciz "diff_check"
nb_cycles_text: .asciz "timed_cycles"
    .text
