# Included from tests/asm/include/outer.s by a path relative to it.
    .byte 0x77
