# createThread and parExecute of the active-messages library (am.s) on a
# 4x4 mesh, original NIU: see threads.s.
# run: mesh=4x4 boot=first niu=original trace-cycles=0..1
    .include "threads.s"
    .include "../lib/am.s"
