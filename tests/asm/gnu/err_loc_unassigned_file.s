# A row naming a file no `.file` gives: GNU as and we refuse it.
    .file 1 "a.c"
    .text
    .loc 2 1 0
    nop
