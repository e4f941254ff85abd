# Unwind-table directives GNU as 2.40 refuses (they were accepted without
# effect before the tables were written).
    .text
    .cfi_endproc                         #! `.cfi_endproc` without corresponding `.cfi_startproc`
    .cfi_def_cfa_offset 16               #! CFI instruction used without previous `.cfi_startproc`
f:
    .cfi_startproc
    .cfi_startproc                       #! previous CFI entry not closed
    .cfi_restore_state                   #! CFI state restore without previous remember
    .cfi_offset ra, -6                   #! register save offset not a multiple of 4
    .cfi_offset foo, -8                  #! unknown register `foo`
    .cfi_offset ra                       #! takes 2 operand(s), found 1
    .cfi_def_cfa_offset undefined_sym    #! a CFI operand must be a number known here
    .cfi_bogus 1                         #! unknown directive `.cfi_bogus`
    .cfi_personality 0, __gxx_personality_v0 #! `.cfi_personality` is not supported
    .cfi_sections .text                  #! unknown CFI section `.text`
    .cfi_sections .debug_frame
    .cfi_sections .eh_frame              #! inconsistent uses of `.cfi_sections`
    .cfi_endproc
    .section .text.b, "ax", @progbits
    .cfi_startproc                       #! open CFI at the end of file
    nop
