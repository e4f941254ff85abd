# .eqv is evaluated at each use: . is the use's location.
.data
.eqv X, .
.word X
.word X
Y: .word X
.eqv Z, Y+4
.word Z - Y
.word (Z - Y) * 3
