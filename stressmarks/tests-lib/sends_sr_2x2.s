# The sends and receives of the send-and-receive library (sr.s) on a 2x2
# mesh, modified NIU: see sends_sr.s.
# run: mesh=2x2 boot=all niu=modified trace-cycles=0..1
    .include "sends_sr.s"
    .include "../lib/sr.s"
