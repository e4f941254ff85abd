# Flag `G` without a group name: GNU as warns ("group name for SHF_GROUP
# not specified") and writes the section without the flag or a group.
.section .text.x,"axG",@progbits
nop
.section .text.y,"axG"
nop
