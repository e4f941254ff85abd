# An alignment skipped for its maximum still raises the section's alignment.
.data
.byte 1
.p2align 4,,1
.byte 2
