# SCMPBarrier and the reductions of the active-messages library (am.s) on a
# 2x2 mesh, original NIU: see collectives.s.
# run: mesh=2x2 boot=all niu=original trace-cycles=0..1
    .include "collectives.s"
    .include "../lib/am.s"
