# Neighborhood, active messages as the thesis describes them (nb_am_lit.s), original NIU, at the spec's test size
# (bits 7, dim 64, lines 8, thickness 2..8, distances 2 and 8) on a 3x2
# mesh. tests/stressmark_neighborhood.rs checks the printed results against
# the stressmarks crate's reference model and every version against the
# others.
# run: mesh=3x2 boot=all niu=original defsym=NB_BITS=7 defsym=NB_DIM=64 defsym=NB_LINES=8 defsym=NB_TMIN=2 defsym=NB_TMAX=8 defsym=NB_DS=2 defsym=NB_DL=8 trace-cycles=0..1
    .include "../nb_am_lit.s"
