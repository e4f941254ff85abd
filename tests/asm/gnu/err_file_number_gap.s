# A hole in the file numbers of a line table: GNU as and we refuse it.
    .file 1 "a.c"
    .file 3 "c.h"
    .text
    .loc 1 1 0
    nop
