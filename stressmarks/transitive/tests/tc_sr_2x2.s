# Transitive Closure, send and receive (tc_sr.s), modified NIU, at the
# spec's test size (n 40, m 100) on a 2x2 mesh. tests/stressmarks.rs checks
# the printed sums against its own Floyd-Warshall and against tc_am.s.
# run: mesh=2x2 boot=all niu=modified defsym=TC_N=40 defsym=TC_M=100 trace-cycles=0..1
    .include "../tc_sr.s"
