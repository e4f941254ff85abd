# Thread-local references as gcc writes them for `__thread` variables:
# local exec (%tprel_hi, `add rd, rs, tp, %tprel_add`, %tprel_lo in loads,
# stores and addi, marked for relaxation, fields left 0 even with an
# addend), initial exec and general dynamic (`la.tls.ie`, `la.tls.gd`, and
# %tls_ie_pcrel_hi / %tls_gd_pcrel_hi with a %pcrel_lo that GNU as does not
# mark), and the same under norelax.
.text
lui a5, %tprel_hi(t)
add a5, a5, tp, %tprel_add(t)
lw a0, %tprel_lo(t)(a5)
sw a0, %tprel_lo(t+4)(a5)
addi a1, a5, %tprel_lo(t)
add a5, a5, a4, %tprel_add(t+8)
la.tls.ie a0, t
la.tls.gd a1, t
1: auipc a2, %tls_ie_pcrel_hi(t)
lw a2, %pcrel_lo(1b)(a2)
2: auipc a3, %tls_gd_pcrel_hi(t)
addi a3, a3, %pcrel_lo(2b)
.option norelax
lui a5, %tprel_hi(t)
add a5, a5, tp, %tprel_add(t)
lw a0, %tprel_lo(t)(a5)
.section .tbss,"awT",@nobits
t: .zero 12
