# Adjacent string literals make one string; .asciz/.string end it once.
.data
.ascii "a" "b"
.asciz "c" "d"
.string "e", "f" "g"
