# Zicsr by name and by number
    csrrw a0, fcsr, a1                   #= 00359573
    csrrs a0, fflags, zero               #= 00102573
    csrrc t0, frm, t1                    #= 002332F3
    csrrwi a0, fcsr, 5                   #= 0032D573
    csrrsi a0, fflags, 31                #= 001FE573
    csrrci a0, frm, 0                    #= 00207573
    csrrs a0, cycle, x0                  #= C0002573
    csrrs a0, time, x0                   #= C0102573
    csrrs a0, instret, x0                #= C0202573
    csrrs a0, cycleh, x0                 #= C8002573
    csrrs a0, instreth, x0               #= C8202573
    csrrs a0, 0xc00, x0                  #= C0002573
    csrrw x0, 0x340, a0                  #= 34051073
    csrrs a0, 4095, x0                   #= FFF02573
