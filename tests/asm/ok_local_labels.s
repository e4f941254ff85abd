# Numeric local labels, backward and forward, redefined
    .text
1:  addi a0, a0, 1                       #= 00150513
    beq a0, a1, 1b                       #= FEB50EE3
    bne a0, a1, 1f                       #= 00B51463
    nop                                  #= 00000013
1:  addi a0, a0, 2                       #= 00250513
    j 1b                                 #= FFDFF06F
2:  j 2f                                 #= 0040006F
2:  j 2b                                 #= 0000006F
    jal 3f                               #= 008000EF
    nop                                  #= 00000013
3:  ret                                  #= 00008067
