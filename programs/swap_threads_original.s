# swap_threads.s on the original NIU (active messages): see there.
# run: mesh=2x1 boot=first niu=original set=tile.contexts=4 set=niu.context_exhausted=swap
    .include "swap_threads.s"
