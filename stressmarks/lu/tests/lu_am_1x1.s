# LU, active messages (lu_am.s), original NIU, at the spec's test size (n 64, B 8) on a 1x1 mesh, without the
# factored matrix in the output (LU_PRINT_MATRIX=0 keeps the snapshot
# small): tests/stressmark_lu.rs runs it again with the matrix printed and
# checks it bit for bit against the stressmarks crate's model and the other
# versions.
# run: mesh=1x1 boot=all niu=original defsym=LU_N=64 defsym=LU_B=8 defsym=LU_PRINT_MATRIX=0 trace-cycles=0..1
    .include "../lu_am.s"
