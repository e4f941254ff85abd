# `.struct`: GNU's absolute section for structure layouts. Labels are
# numbers (LOCAL, ABS), `.skip`/`.space` and alignment only move the offset
# (a fill value is ignored with a warning), `.` and `=` read it, a section
# switch leaves it and `.previous` returns to it where it was.
.struct 0
fa: .skip 4
fb: .space 8
fc: .struct 20
fd:
x = .
.skip 1, 7
.align 3
fe:
.text
nop
.previous
ff:
.data
.word fa, fb, fc, fd, x, fe, ff
