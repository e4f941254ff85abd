# Hexadecimal floating-point literals (C99; an extension over GNU as 2.40) #nognu
    .data
    .float 0x1.8p3                       #= 00 00 40 41
    .float -0x1p-1                       #= 00 00 00 bf
    .double 0x1.8p3                      #= 00 00 00 00 00 00 28 40
    .double -0x1p-2                      #= 00 00 00 00 00 00 d0 bf
