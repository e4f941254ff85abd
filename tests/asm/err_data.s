# Data directives out of range or of the wrong kind
    .data
    .byte 256                            #! value 256 does not fit in 1 byte(s)
    .byte -129                           #! value -129 does not fit in 1 byte(s)
    .half 0x10000                        #! value 65536 does not fit in 2 byte(s)
    .word 0x100000000                    #! value 4294967296 does not fit in 4 byte(s)
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
