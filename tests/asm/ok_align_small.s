# Alignment of 4 bytes or less in code after a stray byte: we pad, so the
# next instruction is aligned; GNU as 2.40 skips such requests in code
# sections and leaves the instruction misaligned (#nognu).
    .text
    addi a0, a0, 1                       #= 00150513
    .byte 1                              #= 01
    .p2align 2                           #= 00 01 00
    addi a0, a0, 3                       #= 00350513
    .byte 2, 3                           #= 02 03
    .align 2                             #= 01 00
    addi a0, a0, 4                       #= 00450513
