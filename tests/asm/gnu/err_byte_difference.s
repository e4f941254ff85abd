# A difference of addresses that does not fit its field is an error (a
# constant is truncated with a warning).
.data
X = 301
.byte X
a: .byte 0
.space 300
b: .byte b-a
