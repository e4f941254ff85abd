# tc_am_lit.s: the Transitive Closure stressmark with active messages as
# the thesis describes it (no barrier between the steps), for the original
# NIU: tc_am.s with tc_am_lit_steps.s's steps (which explains the choices).
# The sweep's transitive-literal row.
#
#   scmp run stressmarks/transitive/tc_am_lit.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym TC_N=40 --defsym TC_M=100)

    .equ TC_AM_LITERAL, 1
    .equ TC_V_FINISH, 1
    .include "tc_am.s"
