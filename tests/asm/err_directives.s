# Directive arguments
    .type f, @fucntion                   #! unknown symbol type `fucntion`
    .attribute arch, 5                   #! attribute 5 takes a string
    .attribute bogus, 1                  #! unknown attribute `bogus`
    .error "stop here"                   #! stop here
    .warning "careful"                   #~ careful
    .option rvc                          #~ compressed instructions are not supported
    .err                                 #! `.err` reached
    .comm c, -1                          #! invalid `.comm` size or alignment
    .insn r 0x80, 0, 0, a0, a1, a2       #! bad value for opcode field
    .insn r 0x7f, 0, 0, a0, a1, a2       #! longer than 32 bits
    .insn r 0x33, 8, 0, a0, a1, a2       #! bad value for funct3 field
    .insn r 0x33, 0, 0, a0, a1           #! wrong number of operands for `.insn r`
    .insn i 0x13, 0, a0, a1, 2048        #! immediate 2048 out of range
    .insn 0x12345678                     #! value conflicts with instruction length
    .insn r 0x33, 0, 0, a0, a1, 5        #! expected a register
