# Transitive Closure, active messages (tc_am.s), original NIU, at the spec's
# test size (n 40, m 100) on a 1x1 mesh. tests/stressmarks.rs checks the
# printed sums against its own Floyd-Warshall and against tc_sr.s.
# run: mesh=1x1 boot=all niu=original defsym=TC_N=40 defsym=TC_M=100 trace-cycles=0..1
    .include "../tc_am.s"
