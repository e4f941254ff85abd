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
