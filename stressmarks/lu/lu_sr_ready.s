# lu_sr_ready.s: the LU stressmark with send-and-receive in Ready mode, with
# the thesis's barrier between posting the receives and sending (the
# modified NIU); the program is lu_sr.s, whose header describes it.
#
#   scmp run stressmarks/lu/lu_sr_ready.s --mesh 4x4 --boot all --niu modified
    .equ LU_READY, 1
    .include "lu_sr.s"
