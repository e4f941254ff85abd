# Errors inside macro expansions point at the macro body and name the use
    .macro twice reg, val
    addi \reg, \reg, \val                #! immediate 3000 out of range
    addi \reg, \reg, \val                #! immediate 3000 out of range
    .endm
    .macro need a:req
    .byte \a
    .endm
    twice a0, 3000
    twice a0, 1, 2                       #! too many arguments to macro `twice`
    need                                 #! missing argument `a` of macro `need`
    .macro forever
    forever                              #! macro `forever` nested too deeply
    .endm
    forever
