# Conditional assembly
    .data
    .set X, 3
    .if X > 2
    .byte 1                              #= 01
    .else
    .byte 2
    .endif
    .if X == 0
    .byte 3
    .elseif X == 3
    .byte 4                              #= 04
    .else
    .byte 5
    .endif
    .ifdef X
    .byte 6                              #= 06
    .endif
    .ifndef NOT_DEFINED
    .byte 7                              #= 07
    .endif
    .ifc abc, abc
    .byte 8                              #= 08
    .endif
    .ifnc abc, abd
    .byte 9                              #= 09
    .endif
    .ifb
    .byte 10                             #= 0A
    .endif
    .ifnb x
    .byte 11                             #= 0B
    .endif
    .ifeq X - 3
    .byte 12                             #= 0C
    .endif
    .ifne X
    .byte 13                             #= 0D
    .endif
    .iflt -1
    .byte 14                             #= 0E
    .endif
    .ifge 0
    .byte 15                             #= 0F
    .endif
    .if 0
    .if 1
    .byte 16
    .else
    .byte 17
    .endif
    .err
    .else
    .byte 18                             #= 12
    .endif
