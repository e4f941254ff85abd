# Syntax errors: each is reported, assembly goes on
    addi a0, a0, 1 +                     #! unexpected end of statement
    addi a0, a0, (1                      #! unexpected end of statement
    addi a0, a0, 1)                      #! unexpected `)`
    li a0, 1 ? 2                         #! unexpected character `?`
    .word 1, , 2                         #! missing value
    ,                                    #! expected an instruction or directive
    li a0, 0xzz                          #! unexpected `xzz`
    li a0, %foo(1)                       #! unknown relocation operator `%foo`
    .word 1 / 0                          #~ division by zero
