# LU, send and receive in Rendezvous mode as the thesis describes it (lu_sr_rdv_lit.s: one phase),
# at the spec's test size (n 64, B 8) on a 2x2 mesh, without the factored
# matrix in the output: tests/stressmark_lu.rs runs it again with the
# matrix printed and checks it bit for bit against the stressmarks crate's
# model and the other versions.
# run: mesh=2x2 boot=all niu=modified defsym=LU_N=64 defsym=LU_B=8 defsym=LU_PRINT_MATRIX=0 trace-cycles=0..1
    .include "../lu_sr_rdv_lit.s"
