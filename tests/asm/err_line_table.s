# Line-table directives GNU as 2.40 refuses (it accepted them silently
# before: a table with a hole, or a row naming no file).
    .file 1 "a.c"
    .file 3 "c.h"                        #! unassigned file number 2
    .file 4 "/src" "e.h"                 #! needs a `.file 0` before it
    .text
    .loc 1 1 0
    nop
    .loc 9 1                             #! unassigned file number 9
    nop
