# `.previous` back into `.struct` after a section switch: values there are
# refused, as GNU as refuses them ("attempt to store value in absolute
# section"), and no fixup reaches the section before (found by the fuzz
# smoke test: the link panicked on one).
fa: .skip 4
fc: .struct 20
fd:
    .text
    nop
    .previous
    .word fa                             #! cannot store values after `.struct`
    .word fd                             #! cannot store values after `.struct`
