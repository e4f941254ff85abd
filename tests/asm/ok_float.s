# .float/.double: decimal, special values, GNU flonum prefixes
    .data
    .float 1.5                           #= 00 00 C0 3F
    .float -0.0, 3, .5, 1e10             #= 00 00 00 80 00 00 40 40 00 00 00 3F F9 02 15 50
    .float inf, -inf, nan, -nan, Infinity #= 00 00 80 7F 00 00 80 FF FF FF FF 7F FF FF FF FF 00 00 80 7F
    .single 0f2.5                        #= 00 00 20 40
    .double 1.5, -2.25                   #= 00 00 00 00 00 00 F8 3F 00 00 00 00 00 00 02 C0
    .double 1e-300, 123456789.125        #= 59 F3 F8 C2 1F 6E A5 01 00 00 80 54 34 6F 9D 41
    .double inf, nan                     #= 00 00 00 00 00 00 F0 7F FF FF FF FF FF FF FF 7F
    .double 0d1.0                        #= 00 00 00 00 00 00 F0 3F
