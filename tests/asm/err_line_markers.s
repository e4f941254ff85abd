# gcc's line markers (`# N "FILE" FLAGS`, around inline assembly): an error
# after one also names the C line it stands for (the snapshot shows it).
    .text
#APP
# 7 "e.c" 1
    addi a0, a0, 1
    frobnicate a0                        #! unknown instruction `frobnicate`
# 0 "" 2
#NO_APP
    frobnicate a1                        #! unknown instruction `frobnicate`
