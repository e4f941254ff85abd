# swap_threads.s with niu.context_exhausted = "block": see there.
# run: mesh=2x1 boot=first set=tile.contexts=4 set=niu.context_exhausted=block
    .include "swap_threads.s"
