# Integer expressions: GNU as's precedence and results, 64-bit values;
# a warning where C would group the operators differently
    .data
    .word 1 + 2 * 3                      #= 07 00 00 00
    .word (1 + 2) * 3                    #= 09 00 00 00
    .word 1 << 2 + 1                     #~ a C reader would group this expression differently  #= 05 00 00 00
    .word 2 * 3 + 4 | 8                  #~ a C reader would group this expression differently  #= 12 00 00 00
    .word 7 & 3 | 8                      #= 0b 00 00 00
    .word 5 ^ 1 & 3                      #~ a C reader would group this expression differently  #= 00 00 00 00
    .word 1 == 1 + 2                     #= 00 00 00 00
    .word 10 / 3, 10 % 3                 #= 03 00 00 00 01 00 00 00
    .word -10 / 3, -10 % 3               #= fd ff ff ff ff ff ff ff
    .word ~0, !0, !5, -(-4)              #= ff ff ff ff 01 00 00 00 00 00 00 00 04 00 00 00
    .byte 3 < 4, 3 > 4, 3 <= 3, 3 >= 4   #= ff 00 ff 00
    .byte 3 == 3, 3 != 3, 3 <> 4         #= ff 00 ff
    .byte 1 && 0, 1 || 0, 2 && 3, 0 || 0  #= 00 01 01 00
    .byte 0x10, 010, 0b101, 'A           #= 10 08 05 41
    .word -0x80000000, 0xffffffff        #= 00 00 00 80 ff ff ff ff
    .word 1 - 2 + 3, 100 / 10 / 2, 2 - -3  #= 02 00 00 00 05 00 00 00 05 00 00 00
    .word 1 + 2 == 3 & 1                 #~ a C reader would group this expression differently  #= 00 00 00 00
    .word (1 + 2 == 3) & 1               #= 01 00 00 00
    .dword -1 >> 1, (-1) << 32 >> 63     #= ff ff ff ff ff ff ff 7f 01 00 00 00 00 00 00 00
    .word ((-1) << 32 >> 63) * -1        #= ff ff ff ff
    .word 3 ! 1, 3 !! 5, !!5, 3 ! (!5)   #= ff ff ff ff 06 00 00 00 01 00 00 00 ff ff ff ff
    .word 1 << 64                        #~ shift count out of range (64 is not between 0 and 63)  #= 00 00 00 00
    .word 7 >> -1                        #~ shift count out of range (-1 is not between 0 and 63)  #= 00 00 00 00
    .word 5 / 0                          #~ division by zero  #= 05 00 00 00
    .word 5 % 0                          #~ division by zero  #= 00 00 00 00
    .byte -255, 255, -128, 127           #= 01 ff 80 7f
    .byte 256                            #~ value 0x100 truncated to 0x0  #= 00
    .half -65535                         #= 01 00
    .half 0x10000                        #~ value 0x10000 truncated to 0x0  #= 00 00
    .word -0xffffffff, 0x1ffffffff       #~ value 0x1ffffffff truncated to 0xffffffff  #= 01 00 00 00 ff ff ff ff
    .word lab2 - lab1 + 4                #= 06 00 00 00
lab1:
    .byte 0, 0                           #= 00 00
lab2:
    .half (lab2 - lab1) * 3              #= 06 00
    .word (lab2 - lab1 == 2) + (lab1 < lab2)  #= fe ff ff ff
    .text
    li t2, ((-1) << 32 >> 63) * -1       #= fff00393
    addi a0, a0, 0xfffff800              #= 80050513
    addi a0, a0, 0xffffffff              #= fff50513
    lw a0, 0xfffffffc(a1)                #= ffc5a503
    sw a0, 0xfffff800(a1)                #= 80a5a023

