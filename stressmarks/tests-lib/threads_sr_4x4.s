# createThread and parExecute of the send-and-receive library (sr.s) on a
# 4x4 mesh, modified NIU: see threads.s.
# run: mesh=4x4 boot=first niu=modified trace-cycles=0..1
    .include "threads.s"
    .include "../lib/sr.s"
