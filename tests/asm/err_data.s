# Data directives out of range (truncated with GNU as's warning) or of the wrong kind
    .data
    .byte 256                            #~ value 0x100 truncated to 0x0
    .half 0x10000                        #~ value 0x10000 truncated to 0x0
    .word 0x100000000                    #~ value 0x100000000 truncated to 0x0
    .ascii 5                             #! expected a string
    .float 1.2.3                         #! invalid floating-point number `1.2.3`
    .double abc                          #! invalid floating-point number `abc`
    .bss
    .word 1                              #! non-zero data in the zero-initialized section `.bss`
    .word later                          #! cannot go in the zero-initialized section `.bss`
later:
    .text
    .align 40                            #! invalid alignment 2^40
    .balign 3                            #! invalid alignment 3
    .org 0x100
    .org 0x10                            #! `.org` cannot move backwards
    .space -1                            #! invalid size -1
