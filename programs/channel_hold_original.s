# channel_hold.s on the original NIU (one transmission queue): see there.
# run: mesh=3x1 boot=all niu=original defsym=ORIGINAL=1
    .include "channel_hold.s"
