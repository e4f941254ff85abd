# Matrix (conjugate gradient), active messages as the thesis describes them
# (cg_am_lit.s: request threads never wait), original NIU, at the spec's
# test size (dim 100, nnz 400, max_iter 200) on a 1x1 mesh.
# tests/stressmark_matrix.rs checks the printed results against the
# stressmarks crate's model and the versions against each other.
# run: mesh=1x1 boot=all niu=original defsym=CG_DIM=100 defsym=CG_NNZ=400 defsym=CG_MAX_ITER=200 trace-cycles=0..1
    .include "../cg_am_lit.s"
