# RV32A with every ordering suffix and both address forms
    lr.w a0, (a1)                        #= 1005A52F
    lr.w.aq t0, (t1)                     #= 140322AF
    lr.w.rl s0, 0(s1)                    #= 1204A42F
    lr.w.aqrl a2, (a3)                   #= 1606A62F
    sc.w a0, a1, (a2)                    #= 18B6252F
    sc.w.aqrl t0, t1, (t2)               #= 1E63A2AF
    amoswap.w a0, a1, (a2)               #= 08B6252F
    amoadd.w.aq a3, a4, (a5)             #= 04E7A6AF
    amoxor.w.rl s2, s3, (s4)             #= 233A292F
    amoand.w.aqrl s5, s6, (s7)           #= 676BAAAF
    amoor.w x1, x2, (x3)                 #= 4021A0AF
    amomin.w x4, x5, 0(x6)               #= 8053222F
    amomax.w x7, x8, (x9)                #= A084A3AF
    amominu.w x10, x11, (x12)            #= C0B6252F
    amomaxu.w.aq x13, x14, (x15)         #= E4E7A6AF
