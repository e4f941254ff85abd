# Branch relaxation as GNU as does it: a conditional branch whose target is
# out of reach, in another section, weak or a number is written as the
# inverted branch over a `jal`; one to a later target that turns out out of
# reach too (the file is assembled again with it long).
    .text
    .globl _start
_start:
    beq a0, a1, near        #= 02b50263
    bne a0, a1, far         #= 00b50463 0140106f
    blt a0, a1, other       #= 00b55463 01c0106f
    bgeu a0, a1, weak_one   #= 00b56463 0000106f
    bltu a0, a1, _start     #= feb562e3
    bnez a0, far            #= 7e051ee3
near:
    ret
    .space 4080
    .weak weak_one
weak_one:
    ret
far:
    bge a0, a1, _start      #= 00b54463 fe1fe06f
    beqz a0, near           #= 80050063
    ret
    .section .text.other, "ax", @progbits
other:
    ret
