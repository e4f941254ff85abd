# An empty macro argument takes its default; an empty one past the last
# parameter is ignored.
.macro m a=5
.word \a
.endm
.data
m
m ,
m 3
.macro n a, b=7
.word \a, \b
.endm
n 1,
n 1
n 2 ,
