# swap_threads.s with work threads suspended in waitr (WAITR), "block": see there.
# run: mesh=2x1 boot=first set=tile.contexts=4 set=niu.context_exhausted=block defsym=WAITR=1
    .include "swap_threads.s"
