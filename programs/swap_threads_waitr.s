# swap_threads.s with work threads suspended in waitr (WAITR), "swap": see there.
# run: mesh=2x1 boot=first set=tile.contexts=4 set=niu.context_exhausted=swap defsym=WAITR=1
    .include "swap_threads.s"
