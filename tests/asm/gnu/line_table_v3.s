# A version 3 line table (no `.file 0`), files in directories, rows in
# two sections and subsections, a pending `.loc` placed by the next one.
    .file 1 "a.c"
    .file 2 "inc/b.h"
    .file 3 "/abs/c.h"
    .text
    .loc 1 3 0
    addi a0, a0, 1
    .loc 2 40 7 discriminator 2
    .loc 3 9 1 prologue_end
    call f
    .text 1
    .loc 1 100 0
    nop
    .section .text.b,"ax",@progbits
    .loc 2 1 0 is_stmt 0
    nop
    .text
    .loc 1 2 0
    ret
    .section .debug_info,"",@progbits
    .4byte 0
