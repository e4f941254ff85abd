# Early RTSs fill a receive table and the one awaited waits behind them (a
# program's hazard the thesis's hardware allows, 5.6.1; docs/network.md,
# "Early RTSs"): tile 0 posts the receive of tile 24's message first and
# waits for it; tiles 1-23 send theirs at once, tile 24 late. Tile 0's
# four-entry table takes the posted receive and three RTSs (RTS Received);
# the next RTS waits in its ejection buffer for an entry that only a
# receive tile 0 posts later would free, the RTSs behind it (tile 24's
# among them) wait in the network, and tile 0 waits for tile 24's data.
# The report names the heads of the held chains: tile 0's ejection buffers,
# what its NIU waits for, its whole receive table.
# run: mesh=5x5 boot=all set=niu.receive_table_entries=4 set=network.stall_cycles=200
    .text
    .globl _start
_start:
    csrr s0, nodeid
    beqz s0, receiver
    li t1, 24
    bne s0, t1, send
    li t2, 10                       # tile 24 sends late
1:  addi t2, t2, -1
    bnez t2, 1b
send:
    li a0, 0                        # message id = the sender's node id
    sendh a0, rdv, s0
    sende s0
    waits s0
    rms s0
    endt
receiver:
    la s4, buf
    li s5, 1
    li s3, 24                       # tile 24's message first
    str s3, s4, s5
    waitr s3
    rmr s3
    li s3, 1                        # then the others', in order
2:  str s3, s4, s5
    waitr s3
    rmr s3
    addi s3, s3, 1
    li t0, 24
    bltu s3, t0, 2b
    endt
    .data
buf: .word 0
