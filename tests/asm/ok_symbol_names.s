# Symbols named like registers: GNU as reads a name by its operand's
# position, so where a form takes a symbol (call, tail, la, lla, the
# load/store-from-symbol forms, jump and branch targets) `f1`, `s4`, `zero`
# are symbols; `call f@plt` is gcc -fPIC's spelling of `call f`. The
# bytes below are GNU ld's for GNU as's object of this file.
    .text
    .globl _start
_start:
    call f1                 #= 00000097 038080e7
    tail f2                 #= 00000317 03030067
    call zero               #= 00000097 028080e7
    jal x5                  #= 020000ef
    j a0                    #= 01c0006f
    beqz a0, a1             #= 00050c63
    call printf@plt         #= 00000097 014080e7
    tail s2 @plt            #= 00000317 00c30067
    ret
f1:
f2:
zero:
x5:
a0:
a1:
printf:
s2:
    lla s1, s1
    lw a5, s4
    sw a0, s4, t0
    flw fa0, s4, t0
    la t1, fa0
    ret
    .data
s1: .word 1
s4: .word 4
fa0: .word 0
