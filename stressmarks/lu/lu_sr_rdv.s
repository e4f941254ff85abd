# lu_sr_rdv.s: the LU stressmark with send-and-receive in Rendezvous mode
# (the modified NIU); the program is lu_sr.s, whose header describes it.
#
#   scmp run stressmarks/lu/lu_sr_rdv.s --mesh 4x4 --boot all --niu modified
    .equ LU_READY, 0
    .include "lu_sr.s"
