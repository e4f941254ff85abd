# Relocation-style operators and the address pseudo-instructions. .text is at
# 0x10000 and .data at 0x11000; the bytes are checked against GNU as + ld too.
    .text
    .globl _start
_start:
    lui a0, %hi(value)                   #= 00011537
    addi a0, a0, %lo(value)              #= 00050513
    lw a1, %lo(value)(a0)                #= 00052583
    sw a1, %lo(value + 4)(a0)            #= 00b52223
1:  auipc a2, %pcrel_hi(value)           #= 00001617
    addi a2, a2, %pcrel_lo(1b)           #= ff060613
.Lpc: auipc a3, %pcrel_hi(value + 4)     #= 00001697
    lw a3, %pcrel_lo(.Lpc)(a3)           #= fec6a683
    la a4, value                         #= 00001717 fe070713
    lla a5, value                        #= 00001797 fd878793
    call func                            #= 00000097 040080e7
    call t0, func                        #= 00000317 038302e7
    tail func                            #= 00000317 03030067
    lw a6, value                         #= 00001817 fb882803
    sw a6, value, t1                     #= 00001317 fb032823
    flw fa0, value, t2                   #= 00001397 fa83a507
    fsd fa0, value, t3                   #= 00001e17 faae3027
    lui a7, %hi(0x12345fff)              #= 123468b7
    addi a7, a7, %lo(0x12345fff)         #= fff88893
func:
    ret                                  #= 00008067
    .data
value:
    .word 1, 2                           #= 01 00 00 00 02 00 00 00
    .word value, func                    #= 00 10 01 00 70 00 01 00
