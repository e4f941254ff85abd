# Wrong kinds of registers
    add a0, a1, fa2                      #! expected an integer register, found floating-point register `fa2`
    fadd.s fa0, a1, fa2                  #! expected a floating-point register, found integer register `a1`
    lw a0, 4(a9)                         #! expected an integer register, found `a9`
    mv x32, a0                           #! expected an integer register, found `x32`
    addi 5, a0, 1                        #! expected an integer register, found `5`
# Every bad register of a line is reported (the first as the error, the
# others as notes under it), not only the first
    add a0, x99, y7                      #! expected an integer register, found `x99`
    fadd.d fa0, q1, a2                   #! expected a floating-point register, found `q1`
    sw a9, 0(b2)                         #! expected an integer register, found `a9`
