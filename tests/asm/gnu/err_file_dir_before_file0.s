# The directory form of `.file N` before any `.file 0` (DWARF 5 only):
# GNU as and we refuse it.
    .file 1 "/src" "a.c"
    .text
    .loc 1 1 0
    nop
