# Included by ok_include.s through the -I directory tests/asm/include.
    .equ INC_VALUE, 42
    .macro inc_byte v
    .byte \v + 1
    .endm
