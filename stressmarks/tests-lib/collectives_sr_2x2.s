# SCMPBarrier and the reductions of the send-and-receive library (sr.s) on a
# 2x2 mesh, modified NIU: see collectives.s.
# run: mesh=2x2 boot=all niu=modified trace-cycles=0..1
    .include "collectives.s"
    .include "../lib/sr.s"
