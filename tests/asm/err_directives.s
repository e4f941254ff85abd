# Directive arguments
    .type f, @fucntion                   #! unknown symbol type `fucntion`
    .attribute arch, 5                   #! attribute 5 takes a string
    .attribute bogus, 1                  #! unknown attribute `bogus`
    .error "stop here"                   #! stop here
    .warning "careful"                   #~ careful
    .option rvc                          #~ compressed instructions are not supported
    .err                                 #! `.err` reached
    .comm c, -1                          #! invalid `.comm` size or alignment
    .altmacro                            #! `.altmacro` is not supported
