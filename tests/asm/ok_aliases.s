# GNU as's aliases and operand forms (rows of isa-spec's pseudo table)
    .text
start:
    add a1, a2, 5                        #= 00560593
    and a1, a2, -5                       #= ffb67593
    or a1, a2, 0x7ff                     #= 7ff66593
    xor a1, a2, -1                       #= fff64593
    slt a1, a2, 100                      #= 06462593
    sltu a1, a2, 1                       #= 00163593
    sll a1, a2, 31                       #= 01f61593
    srl a1, a2, 1                        #= 00165593
    sra a1, a2, 7                        #= 40765593
    add a1, a2, %lo(data)                #= 00060593
    jr a1                                #= 00058067
    jr 8(a2)                             #= 00860067
    jr (a2)                              #= 00060067
    jr a1, 12                            #= 00c58067
    jalr a1                              #= 000580e7
    jalr 8(a2)                           #= 008600e7
    jalr (a2)                            #= 000600e7
    jalr a1, 5                           #= 005580e7
    jalr a1, a2                          #= 000605e7
    jalr a1, a2, 5                       #= 005605e7
    jalr a1, 8(a2)                       #= 008605e7
    jalr a1, %lo(data)                   #= 000580e7
    jr a1, %lo(data)                     #= 00058067
    jalr a1, a2, %lo(data)               #= 000605e7
    sext.b a1, a2                        #= 01861593 4185d593
    sext.h t0, t1                        #= 01031293 4102d293
    zext.h s0, s1                        #= 01049413 01045413
    zext.b a1, a2                        #= 0ff67593
    frsr a1                              #= 003025f3
    fssr a1                              #= 00359073
    fssr a1, a2                          #= 003615f3
    frcsr a3                             #= 003026f3
    fscsr a4, a5                         #= 00379773
    move a1, a2                          #= 00060593
    sbreak                               #= 00100073
    scall                                #= 00000073
    li a1, %lo(data)                     #= 00000593
    fsrm a1, a2                          #= 002615f3
    fsrmi a1, 5                          #= 0022d5f3
    fsrmi 3                              #= 0021d073
    fsflagsi 5                           #= 0012d073
    fsflagsi a0, 1                       #= 0010d573
    csrw fcsr, 5                         #= 0032d073
    csrs fflags, 1                       #= 0010e073
    csrc frm, a0                         #= 00253073
    csrrw a1, fcsr, 5                    #= 0032d5f3
    csrrs a1, fcsr, 5                    #= 0032e5f3
    csrrc a1, fcsr, 5                    #= 0032f5f3
    jal start                            #= f35ff0ef
    jal a1, start                        #= f31ff5ef
    call a1, start                       #= 00000317 f2c305e7
    fmv.x.s a0, fa1                      #= e0058553
    fmv.s.x fa0, a1                      #= f0058553
    .data
data:
    .word 0                              #= 00 00 00 00

