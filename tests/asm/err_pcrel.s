# %pcrel_lo must name an auipc with %pcrel_hi
    .text
lab:
    addi a0, a0, 1
    addi a0, a0, %pcrel_lo(lab)          #! `%pcrel_lo` must name the label of an `auipc` with `%pcrel_hi`
    j %hi(lab)                           #! `%hi` cannot be a branch target
    .word %lo(lab)                       #! relocation operators are not allowed in data
    addi a0, a0, 1 + %lo(lab)            #! `%lo` must be the whole operand
