# GNU as marks %pcrel_hi / %pcrel_lo relocations (la, lla, lw sym, explicit
# pairs) for relaxation only when relaxation is on where they are written
# and at the end of the file (it decides when it applies fixups); call and
# %hi/%lo follow only where they are written. This file ends under norelax.
.text
la a3, ev2
1: auipc a2, %pcrel_hi(ev2)
lw a2, %pcrel_lo(1b)(a2)
lui a0, %hi(ev2)
addi a0, a0, %lo(ev2)
call f
la.tls.ie a1, tv
.option norelax
la a4, ev3
call g
