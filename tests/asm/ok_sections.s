# Sections: named, with flags, push/pop, .previous, small-data names, bss, common (#nognu: ld orders .sdata/.srodata its own way)
    .text
    nop                                  #= 00000013
    .section .rodata
    .byte 1                              #= 01
    .section .sdata,"aw"
    .byte 2                              #= 02
    .section .srodata.cst4,"a",@progbits
    .word 3                              #= 03 00 00 00
    .pushsection .data
    .byte 4                              #= 04
    .popsection
    .word 5                              #= 05 00 00 00
    .section .text.startup,"ax",@progbits
    addi a0, a0, 1                       #= 00150513
    .section .note.GNU-stack,"",@progbits
    .bss
    .zero 8
    .comm buf, 16, 4
    .lcomm lbuf, 8
    .text
    nop                                  #= 00000013
