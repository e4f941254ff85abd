# The sends of the active-messages library (am.s) on a 3x2 mesh, original
# NIU: see sends_am.s.
# run: mesh=3x2 boot=all niu=original trace-cycles=0..1
    .include "sends_am.s"
    .include "../lib/am.s"
