# Operand counts and shapes
    add a0, a1                           #! `add` takes 3 operand(s), found 2
    ret a0                               #! `ret` takes 0 operand(s), found 1
    lw a0, a1                            #! undefined symbol `a1`
    lw a0, 8(a1                          #! unexpected end of statement
    amoadd.w a0, a1, 4(a2)               #! atomic instructions take no offset
    fadd.s fa0, fa1, fa2, rxx            #! unknown rounding mode `rxx`
    fence rw, x                          #! invalid fence set `x`
    csrr a0, cylce                       #! unknown CSR
    sendh a0, thred, a1                  #! unknown message type `thred`
    sendh a0, thread, a1, a2             #! expected `data`, found `thread`
    lui a0, %lo(x)                       #! `%lo` does not fit this operand
    sw a0, sym                           #! `sw` takes 3 operand(s), found 2
