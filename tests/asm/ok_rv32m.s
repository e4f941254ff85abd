# RV32M
    mul a0, a1, a2                       #= 02C58533
    mulh t0, t1, t2                      #= 027312B3
    mulhsu s0, s1, s2                    #= 0324A433
    mulhu x31, x30, x29                  #= 03DF3FB3
    div a0, a0, a1                       #= 02B54533
    divu ra, sp, gp                      #= 023150B3
    rem tp, t0, t1                       #= 0262E233
    remu a7, a6, a5                      #= 02F878B3
