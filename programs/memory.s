# Loads and stores of every width: sign and zero extension, little-endian
# byte order, halves and bytes inside words, doubles through the FP file.
# run: mesh=1x1
    .text
    .globl _start
_start:
    la s1, buf
    li t0, 0x8182f3f4
    sw t0, 0(s1)
    lb a0, 0(s1)            # 0xf4 sign-extended
    call show
    lbu a0, 0(s1)
    call show
    lb a0, 3(s1)            # 0x81
    call show
    lh a0, 2(s1)            # 0x8182
    call show
    lhu a0, 2(s1)
    call show
    lw a0, 0(s1)
    call show
    li t0, 0x55
    sb t0, 5(s1)
    li t0, 0xabcd
    sh t0, 6(s1)
    lw a0, 4(s1)            # 0xabcd5500
    call show
    lw a0, -4(s1)           # the word before buf
    call show
    fld ft0, 0(s1)
    fsd ft0, 8(s1)
    lw a0, 8(s1)
    call show
    lw a0, 12(s1)
    call show
    flw ft1, 4(s1)
    fsw ft1, 16(s1)
    lw a0, 16(s1)
    call show
    lw a0, -4(sp)           # the top of the stack starts zeroed
    call show
    li a0, 0
    li a7, 93
    ecall

show:                       # print a0 in hex and a newline
    li a7, 0x5c01
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    ret

    .data
    .align 3                # buf holds a double: 8-byte aligned
    .word 0
before: .word 0x600dcafe
buf:    .space 32
