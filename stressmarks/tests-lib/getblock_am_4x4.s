# getBlock of the active-messages library (am.s) on a 4x4 mesh, original
# NIU: see getblock.s.
# run: mesh=4x4 boot=all niu=original trace-cycles=0..1
    .include "getblock.s"
    .include "../lib/am.s"
