# A branch to a symbol made .weak later in the file is written long (the
# inverted branch over a jal), as GNU as decides at the end.
.text
f: nop
bnez a0, f
.weak f
