# check.s: what the library tests share (included by each test body; not a
# test itself): printing, and checks that print `FAIL` with what was
# expected and end the run with exit code 1, so that a wrong value fails the
# snapshot test both by its output and by its end.

    .equ PRINT_INT, 0x5c00
    .equ PRINT_HEX, 0x5c01
    .equ PRINT_CHAR, 0x5c02
    .equ PRINT_STRING, 0x5c03
    .equ PRINT_DOUBLE, 0x5c04
    .equ EXIT, 93
    .equ CHECK_PATTERN, 0x5a5a5a5a  # what received blocks hold between strided words

# TEST_PROLOGUE: s0 = this node p, s1 = the node count P, s2 = next
# (p+1 mod P), s3 = far (P-1-p), s4 = prev (p-1 mod P)
.macro TEST_PROLOGUE
    csrr s0, nodeid
    csrr s1, ntiles
    call ring_partners
    mv s2, a0
    mv s3, a1
    mv s4, a2
.endm

    .text

# print_str(a0 = NUL-terminated string)
print_str:
    li a7, PRINT_STRING
    ecall
    ret

# print_int(a0 = value), signed decimal
print_int:
    li a7, PRINT_INT
    ecall
    ret

# print_labeled(a0 = label, a1 = value): "label value\n"
print_labeled:
    li a7, PRINT_STRING
    ecall
    li a0, ' '
    li a7, PRINT_CHAR
    ecall
    mv a0, a1
    li a7, PRINT_INT
    ecall
    li a0, '\n'
    li a7, PRINT_CHAR
    ecall
    ret

# check_int(a0 = got, a1 = expected, a2 = label): FAIL and exit(1) unless equal.
check_int:
    bne a0, a1, 1f
    ret
1:  mv t3, a0
    mv t4, a1
    la a0, fail_text
    li a7, PRINT_STRING
    ecall
    mv a0, a2
    ecall
    la a0, got_text
    ecall
    mv a0, t3
    li a7, PRINT_INT
    ecall
    la a0, expected_text
    li a7, PRINT_STRING
    ecall
    mv a0, t4
    li a7, PRINT_INT
    ecall
    j fail_exit

# check_double(fa0 = got, fa1 = expected, a0 = label): FAIL and exit(1)
# unless the two have the same bits.
check_double:
    addi sp, sp, -16
    fsd fa0, 0(sp)
    fsd fa1, 8(sp)
    lw t0, 0(sp)
    lw t1, 8(sp)
    bne t0, t1, 1f
    lw t0, 4(sp)
    lw t1, 12(sp)
    bne t0, t1, 1f
    addi sp, sp, 16
    ret
1:  mv t3, a0
    la a0, fail_text
    li a7, PRINT_STRING
    ecall
    mv a0, t3
    ecall
    la a0, got_text
    ecall
    fld fa0, 0(sp)
    li a7, PRINT_DOUBLE
    ecall
    la a0, expected_text
    li a7, PRINT_STRING
    ecall
    fld fa0, 8(sp)
    li a7, PRINT_DOUBLE
    ecall
    j fail_exit

# fill_sources(a0 = src, a1 = src2, a2 = words): src[i] = 1000p + i and
# src2[i] = 1000p + 500 + i on node p
fill_sources:
    csrr t2, nodeid
    li t0, 1000
    mul t2, t2, t0
    beqz a2, 2f
1:  sw t2, 0(a0)
    addi t0, t2, 500
    sw t0, 0(a1)
    addi a0, a0, 4
    addi a1, a1, 4
    addi t2, t2, 1
    addi a2, a2, -1
    bnez a2, 1b
2:  ret

# ring_partners() -> a0 = next (p+1 mod P), a1 = far (P-1-p),
# a2 = prev (p-1 mod P) of this node p of P
ring_partners:
    csrr t0, nodeid
    csrr t1, ntiles
    addi a0, t0, 1
    bltu a0, t1, 1f
    li a0, 0
1:  sub a1, t1, t0
    addi a1, a1, -1
    addi a2, t0, -1
    bgez a2, 2f
    addi a2, t1, -1
2:  ret

# check_words(a0 = owner, a1 = words, a2 = stride, a3 = first index,
#             a4 = count, a5 = label): words[i*stride] = 1000 owner + first + i
check_words:
    mv a6, a5
    li a5, 1
    # falls through
# check_strided(a0 = owner, a1 = words, a2 = stride, a3 = first index,
#               a4 = count, a5 = the owner's stride, a6 = label):
# words[i*stride] = 1000 owner + first + i * owner's stride, and the words
# between them keep CHECK_PATTERN
check_strided:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s4, 24(sp)
    sw s5, 20(sp)
    sw s6, 16(sp)
    sw s7, 12(sp)
    sw s8, 8(sp)
    sw s9, 4(sp)
    li t0, 1000
    mul s4, a0, t0
    add s4, s4, a3              # the next expected value
    mv s5, a1
    slli s6, a2, 2              # stride in bytes
    mv s7, a4
    mv s8, a5
    mv s9, a6
1:  lw a0, 0(s5)
    mv a1, s4
    mv a2, s9
    call check_int
    li t0, 4
    beq s6, t0, 2f
    lw a0, 4(s5)
    li a1, CHECK_PATTERN
    mv a2, s9
    call check_int
2:  add s5, s5, s6
    add s4, s4, s8
    addi s7, s7, -1
    bnez s7, 1b
    lw ra, 28(sp)
    lw s4, 24(sp)
    lw s5, 20(sp)
    lw s6, 16(sp)
    lw s7, 12(sp)
    lw s8, 8(sp)
    lw s9, 4(sp)
    addi sp, sp, 32
    ret

fail_exit:
    la a0, on_node_text
    li a7, PRINT_STRING
    ecall
    csrr a0, nodeid
    li a7, PRINT_INT
    ecall
    li a0, '\n'
    li a7, PRINT_CHAR
    ecall
    li a0, 1
    li a7, EXIT
    ecall

    .section .rodata
fail_text: .asciz "FAIL "
got_text: .asciz ": got "
expected_text: .asciz ", expected "
on_node_text: .asciz " on node "
    .text
