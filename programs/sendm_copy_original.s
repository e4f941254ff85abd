# sendm_copy.s on the original NIU: see there.
# run: mesh=2x1 boot=all niu=original defsym=ORIGINAL=1
    .include "sendm_copy.s"
