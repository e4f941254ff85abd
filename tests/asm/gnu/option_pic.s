# .option pic (gcc -fPIC): `la` loads the address from the GOT (GOT_HI20
# and a lw); `lla` and `la` under .option nopic stay PC-relative.
.option pic
.text
la a0, sym
la a1, loc
lla a2, sym
loc: nop
.option push
.option nopic
la a3, sym
.option pop
la a4, sym
