# rts_front.s with tile 2 looking at its entry for B before posting: see there.
# run: mesh=2x2 boot=all defsym=PEEK=1
    .include "rts_front.s"
