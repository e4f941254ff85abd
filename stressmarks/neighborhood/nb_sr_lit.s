# nb_sr_lit.s: the Neighborhood stressmark with send and receive as the
# thesis describes it (the sweep's neighborhood-*-literal rows), for the
# modified NIU: nb_sr.s with every histogram receive posted at once, by the
# main thread while the spawned sender thread sends ("during the histogram
# distribution phase, each node spawns a local thread to send the correct
# histogram portions to every other node. Meanwhile, the main thread
# executes receive operations for the histogram portions owned by the
# local node", thesis 6.2.1), and every send queued at once. A node then
# holds 2(P-1) receives and 2(P-1) sends in its NIU's tables, besides the
# collectives' (up to 13 of each): 126 and more on 64 tiles, more than the
# default 32 entries (niu.receive_table_entries, niu.send_table_entries;
# the thesis gives no size). nb_sr.s keeps 8 rounds in flight instead.
# With NB_ONE_PHASE (nb_common.s, nb_sr.s) the exchange runs once for all
# 8 classes: P-1 receives and sends, each message 16 sendm parts.
#
#   scmp run stressmarks/neighborhood/nb_sr_lit.s --mesh 8x8 --boot all \
#       --set niu.receive_table_entries=160 --set niu.send_table_entries=160

    .equ NB_SR_WINDOW, 2047         # every round: P - 1 < 2048 tiles
    .equ NB_SR_POST_EARLY, 0
    .include "nb_sr.s"
