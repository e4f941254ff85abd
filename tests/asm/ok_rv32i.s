# RV32I: every instruction, ABI and x-names, immediate edges, branches both ways.
    .text
    .globl _start
_start:
    lui a0, 0x12345                      #= 12345537
    lui x31, 0xfffff                     #= FFFFFFB7
    lui t0, 0                            #= 000002B7
    auipc s0, 0x1                        #= 00001417
    auipc x1, 1048575                    #= FFFFF097
back:
    jal ra, fwd                          #= 04C000EF
    jal x0, back                         #= FFDFF06F
    jalr ra, 0(a0)                       #= 000500E7
    jalr t1, -2048(sp)                   #= 80010367
    jalr zero, 2047(x31)                 #= 7FFF8067
    beq a0, a1, back                     #= FEB506E3
    bne s0, s1, fwd                      #= 02941A63
    blt t0, t1, back                     #= FE62C2E3
    bge x5, x6, fwd                      #= 0262D663
    bltu a2, a3, back                    #= FCD66EE3
    bgeu a4, a5, fwd                     #= 02F77263
    lb a0, 0(sp)                         #= 00010503
    lh a1, -1(s0)                        #= FFF41583
    lw a2, 2047(gp)                      #= 7FF1A603
    lbu a3, -2048(tp)                    #= 80024683
    lhu a4, 100(fp)                      #= 06445703
    sb a0, 0(sp)                         #= 00A10023
    sh t0, -1(s1)                        #= FE549FA3
    sw ra, 2044(sp)                      #= 7E112E23
fwd:
    addi a0, a1, -2048                   #= 80058513
    slti a0, a1, 2047                    #= 7FF5A513
    sltiu t0, t1, -1                     #= FFF33293
    xori s2, s3, 0x7ff                   #= 7FF9C913
    ori s4, s5, -0x800                   #= 800AEA13
    andi s6, s7, 255                     #= 0FFBFB13
    slli a0, a0, 0                       #= 00051513
    srli a1, a1, 31                      #= 01F5D593
    srai a2, a2, 17                      #= 41165613
    add s8, s9, s10                      #= 01AC8C33
    sub s11, t3, t4                      #= 41DE0DB3
    sll t5, t6, x0                       #= 000F9F33
    slt x1, x2, x3                       #= 003120B3
    sltu x4, x5, x6                      #= 0062B233
    xor x7, x8, x9                       #= 009443B3
    srl x10, x11, x12                    #= 00C5D533
    sra x13, x14, x15                    #= 40F756B3
    or x16, x17, x18                     #= 0128E833
    and x19, x20, x21                    #= 015A79B3
    fence                                #= 0FF0000F
    fence rw, rw                         #= 0330000F
    fence i, o                           #= 0840000F
    fence iorw, w                        #= 0F10000F
    fence.tso                            #= 8330000F
    fence.i                              #= 0000100F
    ecall                                #= 00000073
    ebreak                               #= 00100073
