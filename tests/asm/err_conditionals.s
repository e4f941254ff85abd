# Conditionals: unbalanced, out of order, non-absolute
    .endif                               #! `.endif` without `.if`
    .else                                #! `.else` without `.if`
    .if undefined_symbol                 #! the condition must be known at this point
    .endif
    .if 1
    .else
    .else                                #! second `.else` for one `.if`
    .endif
    .if 1                                #! conditional is never closed
