# .zero takes a fill byte, as .space does.
.data
.zero 3, 7
.byte 1
