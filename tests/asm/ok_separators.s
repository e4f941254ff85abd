# Statements, labels and comments
    .text
a: b: addi a0, a0, 1 ; addi a1, a1, 2    #= 00150513 00258593
c:  /* a comment */ addi a2, a2, 3 # another #= 00360613
    /* a comment
       over lines */ addi a3, a3, 4      #= 00468693
    ADDI a4, a4, 5                       #= 00570713
    nop; nop                             #= 00000013 00000013
