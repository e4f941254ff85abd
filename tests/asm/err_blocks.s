# Blocks without their ends, ends without blocks
    .endr                                #! `.endr` without `.rept` or `.irp`
    .endm                                #! `.endm` without `.macro`
    .exitm                               #! `.exitm` outside a macro
    .purgem none                         #! no macro `none` to purge
    .rept 2                              #! block has no `.endr`
    nop
