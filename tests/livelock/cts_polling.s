# A livelock with a message waiting for its CTS: tile 0 sends tile 1 a
# Rendezvous message (id 5) that tile 1 never receives, so its RTS is
# recorded and the message's flits stay in tile 0's transmission queue for
# ever; tile 1 posts a receive of id 6, which nobody sends, and polls it
# with ldsr (as SCMPWaitReceive does under completion by polling). No flit
# moves and tile 1 comes back to the same state again and again: the
# livelock watch (sim.spin_check_cycles) ends the run with a report
# (tests/livelock.rs; not in programs/, whose runs must end at the same
# cycle in every mode: a livelock's report cycle depends on where the
# watch's looks fall). Before,
# the watch counted a queue that waits for a CTS as work under way and
# never looked, and the run went on to the cycle limit (the thesis
# profile's Neighborhood with niu.full_queue = "port" and 2-flit queues did
# so on 4x4: a collective's message waiting for its CTS in the queue that
# the data its receiver polls for waits behind).
# run: mesh=2x1 boot=all set=sim.spin_check_cycles=1000 set=sim.max_cycles=1000000
    .text
    .globl _start
_start:
    csrr t0, nodeid
    bnez t0, receiver
    li a0, 1
    li s1, 5
    sendh a0, rdv, s1
    li t1, 7
    send t1
    sende t1
    waits s1
    endt
receiver:
    li s3, 6
    la s4, buf
    li s5, 1
    str s3, s4, s5
poll:
    ldsr t2, s3
    li t3, 7            # Complete (scmp.h's SCMP_RECEIVE_COMPLETE)
    beq t2, t3, done
    yield
    j poll
done:
    endt
    .data
buf: .word 0
