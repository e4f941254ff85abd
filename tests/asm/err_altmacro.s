# Alternate macro mode: a `%` argument must be an absolute expression.
    .altmacro
    .macro w v
    .word v
    .endm
    w %(1+)                              #! invalid expression after `%`
    w %undefined_symbol                  #! must be known at this point
