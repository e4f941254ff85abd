# getBlock of the active-messages library (am.s) on a 3x2 mesh, original
# NIU: see getblock.s.
# run: mesh=3x2 boot=all niu=original trace-cycles=0..1
    .include "getblock.s"
    .include "../lib/am.s"
