# The sends of the active-messages library (am.s) on a 4x4 mesh, original
# NIU: see sends_am.s.
# run: mesh=4x4 boot=all niu=original trace-cycles=0..1
    .include "sends_am.s"
    .include "../lib/am.s"
