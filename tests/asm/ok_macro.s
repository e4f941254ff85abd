# Macros: positional, default, keyword and space-separated arguments, \@,
# \(), :vararg recursion, .exitm, nested definitions, .purgem, quoted
# arguments and defaults (GNU as passes them without their quotes)
    .macro addn reg, n=1
    addi \reg, \reg, \n
    .endm
    .text
    addn a0                              #= 00150513
    addn a1, 5                           #= 00558593
    addn n=3, reg=a2                     #= 00360613
    addn a3 7                            #= 00768693
    .macro pair a, b
    addn \a
    addn \b, 2
    .endm
    pair t0, t1                          #= 00128293 00230313
    .macro lbl name
\name\()_end:
    addi a0, a0, 9
    .endm
    lbl here                             #= 00950513
    j here_end                           #= FFDFF06F
    .data
    .macro words first, rest:vararg
    .word \first
    .ifnb \rest
    words \rest
    .endif
    .endm
    words 1, 2, 3                        #= 00000001 00000002 00000003
    .macro once x
    .byte \x
    .exitm
    .byte 99
    .endm
    once 5                               #= 05
    .macro count
    .byte \@
    .endm
    count                                #= 0C
    count                                #= 0D
    .macro outer
    .macro inner
    .byte 0x44
    .endm
    .endm
    outer
    inner                                #= 44
    .purgem inner
    .macro inner
    .byte 0x55
    .endm
    inner                                #= 55
    .macro req a:req, b=7
    .byte \a, \b
    .endm
    req 1                                #= 01 07
    req 1, 2                             #= 01 02
    .macro text first, second="c d"
    .ascii "\first", "\second"
    .endm
    text "a b"                           #= 61 20 62 63 20 64
    text second="e", first="f"           #= 66 65
    .macro sum v
    .byte \v
    .endm
    sum "1 + 2"                          #= 03
    sum "(1 + 3)"                        #= 04
