# createThread and parExecute of the send-and-receive library (sr.s) on a
# 2x2 mesh, modified NIU: see threads.s.
# run: mesh=2x2 boot=first niu=modified trace-cycles=0..1
    .include "threads.s"
    .include "../lib/sr.s"
