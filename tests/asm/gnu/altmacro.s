# GNU's alternate macro mode: parameters by bare name (also inside quotes),
# `LOCAL` names (.LLnnnn, counted in hex across the file), `%expr`
# arguments, `<...>` arguments with `!` escapes, `&` after a name; the
# mode applies where a macro is used (`.noaltmacro` ends it).
.altmacro
.macro m x, y
LOCAL lab, two
lab: .word x, y
two: .word lab, \x
.endm
.data
m 3, 4
m %(1+2), <5>
m %(2*5+6), <6 >
.macro str s
.ascii "s"
.endm
str <a!>b>
str <c d>
.macro cat a
lbl_\a&_end: .word 1
.endm
cat q
.macro plain v
.word \v, v
.endm
.noaltmacro
v = 9
plain 7
