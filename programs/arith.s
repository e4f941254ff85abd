# Integer arithmetic of RV32IM, including the corner cases the ISA defines:
# division by zero, signed overflow, shifts by register amounts. Every result
# is printed in hex; the program checks each against the value the RISC-V
# specification gives and exits with the number of mismatches.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li s0, 0                # mismatches

    .macro check reg, expected
    mv a0, \reg
    li a7, 0x5c01           # print_hex
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    li t6, \expected
    beq \reg, t6, 9f
    addi s0, s0, 1
9:
    .endm

    li a1, 0x7fffffff
    li a2, 1
    add a3, a1, a2          # wraps to 0x80000000
    check a3, 0x80000000
    sub a3, zero, a1
    check a3, 0x80000001
    li a1, -7
    li a2, 2
    div a3, a1, a2          # rounds toward zero
    check a3, -3
    rem a3, a1, a2
    check a3, -1
    divu a3, a1, a2
    check a3, 0x7ffffffc
    remu a3, a1, a2
    check a3, 1
    div a3, a1, zero        # /0 = -1
    check a3, -1
    divu a3, a1, zero       # /0 = all ones
    check a3, 0xffffffff
    rem a3, a1, zero        # %0 = dividend
    check a3, -7
    li a1, 0x80000000
    li a2, -1
    div a3, a1, a2          # overflow: dividend
    check a3, 0x80000000
    rem a3, a1, a2          # overflow: 0
    check a3, 0
    li a1, 0x12345678
    li a2, 0x9abcdef0
    mul a3, a1, a2
    check a3, 0x242d2080
    mulh a3, a1, a2
    check a3, 0xf8cc93d6
    mulhu a3, a1, a2
    check a3, 0x0b00ea4e
    mulhsu a3, a2, a1       # signed 0x9abcdef0 times unsigned 0x12345678
    check a3, 0xf8cc93d6
    li a1, 0x80000001
    li a2, 33               # shift amounts use the low 5 bits
    sll a3, a1, a2
    check a3, 0x00000002
    srl a3, a1, a2
    check a3, 0x40000000
    sra a3, a1, a2
    check a3, 0xc0000000
    srai a3, a1, 31
    check a3, -1
    slt a3, a1, zero
    check a3, 1
    sltu a3, a1, zero
    check a3, 0
    sltiu a3, zero, -1      # 0 < 0xffffffff unsigned
    check a3, 1
    xori a3, a1, -1
    check a3, 0x7ffffffe
    lui a3, 0xfffff
    check a3, 0xfffff000
    auipc a3, 0
    la t5, here
here:
    sub a3, t5, a3          # here is 12 bytes after the auipc (la is auipc+addi)
    check a3, 12

    mv a0, s0
    li a7, 93
    ecall
