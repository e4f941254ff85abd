# .exitm inside .if or .rept in a macro ends the expansion, with the
# conditionals and repetitions opened in it.
.macro m a
.if \a
.word 1
.exitm
.endif
.word 2
.endm
.data
m 1
m 0
.macro r
.rept 3
.word 5
.exitm
.endr
.endm
r
