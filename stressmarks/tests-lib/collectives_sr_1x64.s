# SCMPBarrier and the reductions of the send-and-receive library (sr.s) on a
# 1x64 mesh, modified NIU: six rounds along y, as on 64x64 (slots 6..11,
# the down slot 12; the x rounds are the same code): see
# collectives.s.
# run: mesh=1x64 boot=all niu=modified trace-cycles=0..1
    .include "collectives.s"
    .include "../lib/sr.s"
