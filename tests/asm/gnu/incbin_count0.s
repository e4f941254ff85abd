# .incbin with a count of 0 takes the rest of the file.
.data
.incbin "tests/asm/gnu/incbin.dat",2,0
.byte 9
.incbin "tests/asm/gnu/incbin.dat",0,3
