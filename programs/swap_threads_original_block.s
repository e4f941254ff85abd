# swap_threads.s on the original NIU with niu.context_exhausted = "block": see there.
# run: mesh=2x1 boot=first niu=original set=tile.contexts=4 set=niu.context_exhausted=block
    .include "swap_threads.s"
