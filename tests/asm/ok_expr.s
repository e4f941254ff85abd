# Integer expressions with C precedence (GNU as uses its own precedence: #nognu)
    .data
    .word 1 + 2 * 3                      #= 07 00 00 00
    .word (1 + 2) * 3                    #= 09 00 00 00
    .word 1 << 2 + 1                     #= 08 00 00 00
    .word 7 & 3 | 8                      #= 0b 00 00 00
    .word 5 ^ 1 & 3                      #= 04 00 00 00
    .word 10 / 3, 10 % 3                 #= 03 00 00 00 01 00 00 00
    .word -10 / 3, -10 % 3               #= fd ff ff ff ff ff ff ff
    .word ~0, !0, !5, -(-4)              #= ff ff ff ff 01 00 00 00 00 00 00 00 04 00 00 00
    .byte 3 < 4, 3 > 4, 3 <= 3, 3 >= 4   #= 01 00 01 00
    .byte 3 == 3, 3 != 3, 3 <> 4         #= 01 00 01
    .byte 1 && 0, 1 || 0, 2 && 3, 0 || 0 #= 00 01 01 00
    .byte 0x10, 010, 0b101, 'A'          #= 10 08 05 41
    .word -0x80000000, 0xffffffff        #= 00 00 00 80 ff ff ff ff
    .word 1 - 2 + 3, 100 / 10 / 2, 2 - -3 #= 02 00 00 00 05 00 00 00 05 00 00 00
    .word 1 + 2 == 3 & 1                 #= 01 00 00 00
    .word lab2 - lab1 + 4                #= 06 00 00 00
lab1:
    .byte 0, 0                           #= 00 00
lab2:
    .half (lab2 - lab1) * 3              #= 06 00
