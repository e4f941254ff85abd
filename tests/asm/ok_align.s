# Alignment: code is padded with nops (a zero byte, a 2-byte 0x0001, then nop
# words, as GNU as pads); data with zeros or the fill byte; max-skip honoured.
    .text
    addi a0, a0, 1                       #= 00150513
    .align 3                             #= 00000013
    addi a0, a0, 2                       #= 00250513
    .byte 1                              #= 01
    .balign 8                            #= 00 01 00
    addi a0, a0, 3                       #= 00350513
    .balign 16                           #= 00000013 00000013 00000013
    addi a0, a0, 4                       #= 00450513
    .p2align 4,,3
    addi a0, a0, 5                       #= 00550513
    .data
    .byte 1                              #= 01
    .align 2                             #= 00 00 00
    .byte 2                              #= 02
    .balign 8, 0xee                      #= ee ee ee
    .byte 3                              #= 03
    .p2align 2, 0x55                     #= 55 55 55
    .byte 4                              #= 04
