# Transitive Closure, active messages as the thesis describes them
# (tc_am_lit.s: no barrier between the steps), original NIU, at the spec's
# test size (n 40, m 100) on a 3x2 mesh. tests/stressmarks.rs checks the
# printed sums against its own Floyd-Warshall and against the others.
# run: mesh=3x2 boot=all niu=original defsym=TC_N=40 defsym=TC_M=100 trace-cycles=0..1
    .include "../tc_am_lit.s"
