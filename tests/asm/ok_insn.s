# `.insn` in every RV32 format, and the raw forms
    .text
start:
    .insn r 0x33, 0, 0, a0, a1, a2       #= 00c58533
    .insn r OP, 0, 0x20, a0, a1, a2      #= 40c58533
    .insn r CUSTOM_0, 7, 127, x31, x1, x2  #= fe20ff8b
    .insn r 0x53, 0, 0, fa0, fa1, fa2    #= 00c58553
    .insn r 0x43, 0, 0, fa0, fa1, fa2, fa3  #= 68c58543
    .insn r4 0x43, 0, 0, fa0, fa1, fa2, fa3  #= 68c58543
    .insn r4 MADD, 7, 3, a0, a1, a2, a3  #= 6ec5f543
    .insn i 0x13, 0, a0, a1, 5           #= 00558513
    .insn i OP_IMM, 0, a0, a1, -2048     #= 80058513
    .insn i 0x03, 2, a0, 8(a1)           #= 0085a503
    .insn i LOAD, 2, a0, (a1)            #= 0005a503
    .insn s 0x23, 2, a0, 8(a1)           #= 00a5a423
    .insn s STORE, 2, a0, (a1)           #= 00a5a023
    .insn s 0x27, 3, fa0, -8(a1)         #= fea5bc27
    .insn b 0x63, 0, a0, a1, start       #= fcb504e3
    .insn sb 0x63, 0, a0, a1, start      #= fcb502e3
    .insn b BRANCH, 1, a0, a1, start     #= fcb510e3
    .insn u 0x37, a0, 0xfffff            #= fffff537
    .insn u LUI, a0, 5                   #= 00005537
    .insn j 0x6f, ra, start              #= fb5ff0ef
    .insn uj JAL, ra, start              #= fb1ff0ef
    .insn 4, 0x00000013                  #= 00000013
    .insn 0x13                           #= 00000013
    .insn 2, 0x0001                      #= 01 00
    .insn 0x1234                         #= 34 12
    .insn i 0x73, 0, x0, x0, 0x302       #= 30200073
    .insn r CUSTOM_0, 1, 0, x0, a0, a1   #= 00b5100b
    .insn r CUSTOM_2, 0, 0, x0, x0, x0   #= 0000005b
    .insn i SYSTEM, 0, zero, zero, 0x105  #= 10500073
    .insn 6, 0x1f                        #= 1f 00 00 00 00 00
    .insn 2, 0x0001                      #= 01 00
    .insn 8, 0x3f                        #= 0000003f 00000000

