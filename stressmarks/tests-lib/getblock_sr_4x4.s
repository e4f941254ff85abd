# getBlock of the send-and-receive library (sr.s) on a 4x4 mesh, modified
# NIU: see getblock.s.
# run: mesh=4x4 boot=all niu=modified trace-cycles=0..1 defsym=GETBLOCK_SR=1
    .include "getblock.s"
    .include "../lib/sr.s"
