# Every standard CSR name GNU as knows, and older ones, assemble to its
# number; a CSR named in an instruction records the privileged spec 1.11
# among the attributes.
.text
csrr a0, mscratch
csrr a0, hpmcounter3
csrr a0, mhartid
csrw mtvec, a0
csrr a0, fflags
csrr a0, sbadaddr
csrr a0, dscratch
csrrs a0, satp, a1
