# lu_sr_ready_lit.s: the LU stressmark with send-and-receive in Ready mode
# as the thesis describes it, for the modified NIU (the sweep's
# lu-ready-literal row): lu_sr.s with one phase per iteration,
# "nodes post non-blocking receives for all the blocks that they will need
# at the beginning of each iteration" (thesis 6.3.1), and no limit on the
# sends in flight. A tile then holds up to 2 n/B + 1 receives (besides the
# collectives' 11) in its NIU's receive table, more than the default 32
# entries below 16 tiles at the default size (niu.receive_table_entries;
# the thesis gives no size); lu_sr.s posts in phases instead, and from 16
# tiles up has one phase too.
#
#   scmp run stressmarks/lu/lu_sr_ready_lit.s --mesh 2x2 --boot all \
#       --set niu.receive_table_entries=160 --set niu.send_table_entries=160

    .equ LU_LITERAL, 1
    .equ LU_READY, 1
    .equ LU_SR_WINDOW, 4096         # one phase: every index after K
    .equ LU_SR_SENDS, 256           # more than a tile sends in an iteration
    .include "lu_sr.s"
