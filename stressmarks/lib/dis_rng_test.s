# Test of dis_rng.s: prints a long stream of every routine, one value a
# line, which stressmarks/tests/dis_rng.rs compares with the Rust model
# (`stressmarks::Ran1`) line by line. Floats print as their bits.
#   1. the first 10 rand_num of seeds 0 and 42 (both start as -1 does);
#   2. COUNT rand_num, seed -1;
#   3. COUNT rand_int, seed -1, cycling over the ranges of `int_ranges`;
#   4. COUNT random_float, seed -123456789, cycling over `float_ranges`;
#   5. COUNT random_non_zero_float, seed -2147483647, over `nonzero_ranges`.
# Link: scmp run stressmarks/lib/dis_rng_test.s stressmarks/lib/dis_rng.s
# --mesh 1x1 (no run header: it is not a snapshot program, and `scmp
# test` takes it for a file other programs include).
    .equ COUNT, 10000
    .equ PRINT_INT, 0x5c00
    .equ PRINT_HEX, 0x5c01
    .equ PRINT_CHAR, 0x5c02

    .text
    .globl _start
_start:
    la s0, state
    # 1. out-of-range seeds
    li a0, 0
    call short_stream
    li a0, 42
    call short_stream
    # 2. rand_num
    li a0, -1
    mv a1, s0
    call ran1_init
    li s1, COUNT
1:  mv a0, s0
    call rand_num
    call print_float
    addi s1, s1, -1
    bnez s1, 1b
    # 3. rand_int over int_ranges (pairs lo, hi)
    li a0, -1
    mv a1, s0
    call ran1_init
    li s1, 0
2:  andi t0, s1, 7
    slli t0, t0, 3
    la t1, int_ranges
    add t0, t0, t1
    lw a1, 0(t0)
    lw a2, 4(t0)
    mv a0, s0
    call rand_int
    li a7, PRINT_INT
    ecall
    call newline
    addi s1, s1, 1
    li t0, COUNT
    blt s1, t0, 2b
    # 4. random_float over float_ranges (pairs lo, hi)
    li a0, -123456789
    mv a1, s0
    call ran1_init
    li s1, 0
3:  andi t0, s1, 3
    slli t0, t0, 3
    la t1, float_ranges
    add t0, t0, t1
    flw fa0, 0(t0)
    flw fa1, 4(t0)
    mv a0, s0
    call random_float
    call print_float
    addi s1, s1, 1
    li t0, COUNT
    blt s1, t0, 3b
    # 5. random_non_zero_float over nonzero_ranges (lo, hi, eps, pad)
    li a0, -2147483647
    mv a1, s0
    call ran1_init
    li s1, 0
4:  andi t0, s1, 3
    slli t0, t0, 4
    la t1, nonzero_ranges
    add t0, t0, t1
    flw fa0, 0(t0)
    flw fa1, 4(t0)
    flw fa2, 8(t0)
    mv a0, s0
    call random_non_zero_float
    call print_float
    addi s1, s1, 1
    li t0, COUNT
    blt s1, t0, 4b
    li a0, 0
    li a7, 93
    ecall

# Ten rand_num of seed a0.
short_stream:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s1, 8(sp)
    mv a1, s0
    call ran1_init
    li s1, 10
1:  mv a0, s0
    call rand_num
    call print_float
    addi s1, s1, -1
    bnez s1, 1b
    lw s1, 8(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# Prints the bits of fa0 and a newline.
print_float:
    fmv.x.w a0, fa0
    li a7, PRINT_HEX
    ecall
newline:
    li a0, 10
    li a7, PRINT_CHAR
    ecall
    ret

    .data
    .p2align 2
state:
    .zero 136
# The ranges the stressmarks draw from, and some with negative bounds.
int_ranges:
    .word 0, 499
    .word -7, 12
    .word 0, 16777215               # a 4096x4096 image's pixel index
    .word 1, 9999
    .word 0, 0
    .word -1000000000, 1000000000
    .word 0, 255
    .word 0, 2047
float_ranges:
    .float -3.4e8, 3.4e8            # Matrix's lo, hi at dim = 100
    .float 0.0, 1.0
    .float -0.001, 5.0
    .float -3.4e6, 3.4e6
nonzero_ranges:
    .float -3.4e8, 3.4e8, 1e-10, 0
    .float -3.4e10, 3.4e10, 1e-10, 0
    .float -1.0, 1.0, 0.25, 0
    .float -2.0, 0.5, 1.0, 0
