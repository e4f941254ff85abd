# Jump targets beyond reach (and odd ones); a conditional branch beyond reach
# is written long (ok_relax.s), its `jal` then checked like any
    .text
start:
    j far                                #! target out of range
    .space 0x100000
far:
    bne a0, a1, 0x10001                  #! target out of range
