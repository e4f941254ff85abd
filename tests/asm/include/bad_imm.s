# Included by err_include.s: the error is reported here.
    addi a0, a0, 4096                    #! immediate 4096 out of range
