# Section groups (what g++ and gcc write for inline functions and
# template instances): `G` with a signature, `comdat` or a plain group,
# `M` before the signature, two sections of one name in different groups
# kept apart, `?` joining the group of the section before, relocations of
# a member listed in its group, a signature that names no symbol made a
# local symbol of the `.group` section, one that names a function used as it.
.section .text.a,"axG",@progbits,grp1,comdat
nop
.section .rodata.b,"aG",@progbits,grp1,comdat
.word 5
.section .text.c,"axG",@progbits,plain
nop
.section .rodata.m,"aMSG",@progbits,1,grp2,comdat
.string "hi"
.section .text.a,"axG",@progbits,grp3,comdat
ret
.section .data.q,"aw?"
.word 7
.section .text.inl,"axG",@progbits,inl,comdat
.globl inl
.type inl, @function
inl:
  li a0, 3
  ret
.text
call foo
call inl
.section .text.a,"axG",@progbits,grp1,comdat
call foo
