# `li zero, VALUE` with a high part: GNU as writes lui and then an addi
# even when the low part is 0 (its rule: an addi whenever the register of
# the high part is x0), so the code is 8 bytes, not 4. Found by the fuzz
# crate's gnu_differential target.
.text
li zero, -2147483648
li zero, 0x12345000
li zero, 5
li zero, 0x12345678
li a0, -2147483648
