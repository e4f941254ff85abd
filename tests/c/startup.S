/* An assembly source that goes through the C preprocessor first. */
#include "scmp_defs.h"
#define SYS_EXIT 93

    .text
    .globl _start
_start:
#if WORDS > 2
    li a0, WORDS
#else
    li a0, 0
#endif
    la a1, table
    lw a2, 4(a1)      /* SQUARE(3) */
    li a7, SYS_EXIT
    ecall
    .data
table:
    .word WORDS, SQUARE(3)
