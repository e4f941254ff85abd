# Bytes cannot be stored after `.struct` (GNU: "attempt to store value in
# absolute section").
.struct 0
.word 1
