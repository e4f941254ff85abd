# A LEB128 of a difference of code addresses is refused in an object (GNU as
# 2.40 has no relocation for it; a linker that relaxes would make it wrong).
.text
a: call f
b: nop
.data
.uleb128 b-a
