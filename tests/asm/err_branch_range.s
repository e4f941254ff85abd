# Branch and jump targets beyond reach (and odd ones)
    .text
start:
    beq a0, a1, far                      #! target out of range
    .space 5000
far:
    j start
    bne a0, a1, 0x10001                  #! target out of range
