# .type with %function, quoted and STT_ names, and @gnu_unique_object
# (binding STB_GNU_UNIQUE, the object's OS/ABI GNU's).
.text
.type f, %function
f: nop
.type g, "function"
g: nop
.data
.type o, @gnu_unique_object
o: .word 1
.type p, STT_OBJECT
p: .word 2
