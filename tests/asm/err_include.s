# Errors in an included file are reported there, naming the .include
    .include "bad_imm.s"
    .include "no_such_file.s"            #! cannot find `no_such_file.s`
