# getBlock of the send-and-receive library (sr.s) on a 3x2 mesh, modified
# NIU: see getblock.s.
# run: mesh=3x2 boot=all niu=modified trace-cycles=0..1 defsym=GETBLOCK_SR=1
    .include "getblock.s"
    .include "../lib/sr.s"
