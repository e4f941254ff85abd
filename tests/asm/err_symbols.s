# Undefined and duplicate symbols, local labels
    .text
_start:
    call nowhere                         #! undefined symbol `nowhere`
    j _strat                             #! undefined symbol `_strat`
    beq a0, a1, 1b                       #! no local label `1:` before this reference
    bne a0, a1, 2f                       #! local label `2` is not defined after this reference
dup:
dup:                                     #! symbol `dup` is already defined
    .equiv E, 1
    .equiv E, 2                          #! symbol `E` is already defined
    .set dup, 3                          #! symbol `dup` is already defined
    .word missing + 4                    #! undefined symbol `missing`
