# @gnu_indirect_function is STT_GNU_IFUNC (and the object's OS/ABI GNU's).
.text
.type f,@gnu_indirect_function
.globl f
f: nop
