# .include through -I (tests/asm/include) and relative to the including file (#nognu: include paths relative to the file)
    .include "defs.s"
    .data
    .byte INC_VALUE                      #= 2a
    inc_byte 4                           #= 05
    .include "include/outer.s"           #= 77
