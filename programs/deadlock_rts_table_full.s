# A Rendezvous RTS that waits in its ejection buffer for a receive-table
# entry that never frees: tile 1's one-entry table holds the receive it
# posted for message id 5, which nobody sends, and its thread waits for it;
# tile 0 sends message id 2 in Rendezvous mode and waits for the CTS. No
# thread can run; the RTS is a flit held in the network (its NIU looks at
# it every cycle), so the run ends when no flit has moved for
# network.stall_cycles, and at the same cycle for every sim.epoch_cycles,
# shorter than the stall watch or longer (a fuzz input once ran to the
# cycle limit with epochs shorter than the watch: the end test counted a
# flit waiting in an ejection buffer as nothing pending).
# run: mesh=2x1 boot=all set=niu.receive_table_entries=1 set=network.stall_cycles=40
    .text
    .globl _start
_start:
    csrr t0, nodeid
    bnez t0, receiver
    li a0, 1
    li s1, 2
    sendh a0, rdv, s1
    sende zero
    waits s1
    endt
receiver:
    li s3, 5
    la s4, buf
    li s5, 1
    str s3, s4, s5
    waitr s3
    endt
    .data
buf: .word 0
