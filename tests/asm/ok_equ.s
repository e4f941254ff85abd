# Symbols: .equ/.set/=, redefinition with .set, forward references, label
# differences, .equiv/.eqv, .globl/.type/.size
    .globl main
    .type main, @function
    .equ A, 5
    .set B, A * 2
    C = B + 1
    .data
    .byte A, B, C                        #= 05 0A 0B
    .set B, 1
    .byte B                              #= 01
    .word FWD                            #= 07 00 00 00
    .equ FWD, 7
    .word end - start                    #= 08 00 00 00
start:
    .word 0, 0                           #= 00 00 00 00 00 00 00 00
end:
    .equiv D, 3
    .byte D                              #= 03
    .eqv E, 4
    .byte E                              #= 04
    .text
main:
    addi a0, zero, A                     #= 00500513
    ret                                  #= 00008067
    .size main, . - main
