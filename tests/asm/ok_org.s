# .org moves the location counter forward, filling
    .data
    .byte 1                              #= 01
    .org 4                               #= 00 00 00
    .byte 2                              #= 02
    .org 8, 0xff                         #= FF FF FF
    .byte 3                              #= 03
