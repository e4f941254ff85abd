# lu_am_lit.s: the LU stressmark with active messages as the thesis
# describes them, for the original NIU (the sweep's lu-ready-literal and
# lu-rendezvous-literal rows): lu_am.s with every block a tile needs in an
# iteration requested at once ("nodes request the diagonal block and
# perimeter blocks by creating threads on the nodes that own these blocks.
# To prevent the owners of the diagonal and perimeter blocks from becoming
# overwhelmed with threads, barriers are used to separate diagonal block
# request periods from perimeter block request periods, as well as to
# separate each iteration from the next", thesis 6.3.1: the barriers, and
# no other limit). lu_am.s keeps at most 8 requests in flight per tile; from
# 16 tiles up at the default size no tile needs more, so the two differ on
# fewer tiles only.
#
#   scmp run stressmarks/lu/lu_am_lit.s --mesh 2x2 --boot all --niu original

    .equ LU_LITERAL, 1
    .equ LU_AM_WINDOW, 1024         # more than any tile requests (2 n/B)
    .include "lu_am.s"
