# Immediates out of range state the range
    addi a0, a0, 2048                    #! immediate 2048 out of range
    addi a0, a0, -2049                   #! immediate -2049 out of range
    slli a0, a0, 32                      #! immediate 32 out of range
    lui a0, 0x100000                     #! immediate 1048576 out of range
    csrrwi a0, fcsr, 32                  #! immediate 32 out of range
    lw a0, 4096(sp)                      #! immediate 4096 out of range
    .set BIG, 5000
    andi a0, a0, BIG                     #! immediate 5000 out of range
    li a0, 0x100000000                   #! does not fit in 32 bits
