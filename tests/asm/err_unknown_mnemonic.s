# Unknown mnemonics and directives suggest the nearest known one
    ad a0, a1, a2                        #! unknown instruction `ad`
    fadd.x fa0, fa1, fa2                 #! unknown instruction `fadd.x`
    .wrod 5                              #! unknown directive `.wrod`
    snedh a0, thread, a1                 #! unknown instruction `snedh`
    sret                                 #! `sret` is a privileged instruction, which SCMP does not have
