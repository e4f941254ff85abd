# A pc-relative form with an absolute target (%pcrel_hi(ABS), jal t0, ABS):
# relocations against *ABS* with the value as addend, as GNU as writes them.
.text
X = 0x1000
1: auipc a0, %pcrel_hi(X)
addi a0, a0, %pcrel_lo(1b)
jal t0, X
beqz a0, X
