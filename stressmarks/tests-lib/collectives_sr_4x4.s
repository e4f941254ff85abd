# SCMPBarrier and the reductions of the send-and-receive library (sr.s) on a
# 4x4 mesh, modified NIU: see collectives.s.
# run: mesh=4x4 boot=all niu=modified trace-cycles=0..1
    .include "collectives.s"
    .include "../lib/sr.s"
