# .rept, .irp, .irpc, nested
    .text
    .rept 3                              #= 13 00 00 00 13 00 00 00 13 00 00 00
    nop
    .endr
    .irp r, a0, a1, a2                   #= 13 05 15 00 93 85 15 00 13 06 16 00
    addi \r, \r, 1
    .endr
    .data
    .irpc c, 123                         #= 01 02 03
    .byte \c
    .endr
    .rept 2                              #= 07 07 08 07 07 08
    .rept 2
    .byte 7
    .endr
    .byte 8
    .endr
    .rept 0
    .byte 9
    .endr
    .irp v                               #= 01
    .byte 1\v
    .endr
    .irp v, "1", "2 + 3"                 #= 01 05
    .byte \v
    .endr
    .irp s, "ab", "c d"                  #= 61 62 63 20 64
    .ascii "\s"
    .endr
