# cg_am_lit.s: the Matrix stressmark with active messages as the thesis
# describes them, for the original NIU (the sweep's matrix-literal row):
# cg_am.s, whose request threads "send the data to the requesting node and
# terminate" (thesis 1.2.3) and never wait. A barrier before each step of
# the gather of p (column step, row step) makes every node's data for the
# step ready before any request for it is made: the thesis's iterations are
# driven by node 0, which starts each part on every node with a thread and
# collects its results with global reductions (6.2.2), so the parts are
# separated anyway; it does not say how a request finds its data ready.
# In cg_am.s the request thread waits (polls) until its node's data is
# ready instead, which takes issue slots from the node's phase thread.
#
#   scmp run stressmarks/matrix/cg_am_lit.s --mesh 4x4 --boot all --niu original
#   (test size: --defsym CG_DIM=100 --defsym CG_NNZ=400 --defsym CG_MAX_ITER=200)

    .equ CG_AM_LITERAL, 1
    .include "cg_am.s"
