# Where GNU as warns or refuses, we do too (these were silent)
    .data
    .fill 2, -1, 1                       #~ size negative; `.fill` ignored
    .fill 2, 16, 1                       #~ `.fill` size clamped to 8
    .fill -1, 1, 1                       #~ repeat count negative; `.fill` ignored
    .skip 4, 300                         #~ value 0x12c truncated to 0x2c
    .space 2, -300                       #~ value 0xfffffffffffffed4 truncated to 0xd4
    .float 1e999                         #! invalid floating-point number `1e999`
    .double -1e999                       #! invalid floating-point number `-1e999`
    .float 1e38
