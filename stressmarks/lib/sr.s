# sr.s: the send-and-receive library for SCMP's modified NIU design
# (`niu.design = "modified"`, the default; thesis 4.2, Tables 4.1-4.3, and
# chapter 5). A receive is posted into the NIU's receive table with a buffer
# (`str`); a send names a message id, not an address; both are records the
# thread polls, waits on or clears. Sends use Rendezvous mode (RTS, CTS,
# then the data) unless SCMPSetMode picks Ready mode. With createThread,
# parExecute, SCMPBarrier and the reductions of scmp_common.s.
# docs/libraries.md describes the library; a program includes it once
# (`.include "PATH/stressmarks/lib/sr.s"`) and not am.s beside it.
#
# Calling convention: RISC-V ilp32d (a0..a7, fa0..; t*, a*, ft*, fa*
# clobbered; s*, fs*, sp kept). Strides are in words, below 2^16.
#
# Every operation leaves its table entry until it is cleared
# (SCMPClearSend, SCMPClearReceive), and an id may be used again only after
# that (thesis 4.2). The send and receive tables hold 32 entries each by
# default (`niu.send_table_entries`, `niu.receive_table_entries`); the
# collectives use up to 13 of each while they run, with kind 0xF ids.
# A context's messages leave in the order it wrote them, through its own
# transmission queue: a Rendezvous send whose receiver has not posted the
# receive holds back the context's later messages (thread messages too).

    .include "scmp_common.s"

    .equ SR_SENDM_MAX_WORDS, 65535      # count field of sendm's second operand

# Send-table states (ldss, SCMPPollSend) and receive-table states (ldsr,
# SCMPPollReceive), thesis Tables 5.1 and 5.2.
    .equ SCMP_SEND_EMPTY, 0
    .equ SCMP_SEND_IN_USE, 1
    .equ SCMP_SEND_IN_PROGRESS, 2
    .equ SCMP_SEND_COMPLETE, 3
    .equ SCMP_RECEIVE_EMPTY, 0
    .equ SCMP_RECEIVE_IN_USE, 1
    .equ SCMP_RECEIVE_IN_PROGRESS, 2
    .equ SCMP_RECEIVE_RTS_RECEIVED, 3
    .equ SCMP_RECEIVE_COMPLETE, 7

# Send modes (SCMPSetMode).
    .equ SCMP_MODE_RENDEZVOUS, 0
    .equ SCMP_MODE_READY, 1

# How the library waits for a send or a receive to be Complete
# (SCMPWaitSend, SCMPWaitReceive, SCMPSend, SCMPReceive, getBlock's sender
# thread and the collectives), chosen when the program is assembled
# (`--defsym SCMP_WAIT_POLL=1`, or a profile's [profile.programs]):
# - 0 (the default): `waits` / `waitr`, instructions of ours beyond the
#   thesis's Table 5.3: the context suspends and its NIU wakes it.
# - 1: as Table 5.3 implies, which has no wait instruction: a loop that
#   loads the entry's state (`ldss` / `ldsr`, "this allows threads to check
#   for completion", 5.4) and, while it is not Complete, yields the
#   pipeline before it loads again. It yields because 4.2's wait functions
#   "always suspend the invoking thread if the operation is not complete":
#   with only `ldss`/`ldsr` the nearest a thread comes to suspending is
#   giving its issue slot to the next ready context, which the preemptive
#   round-robin scheduler (1.2) does at a thread switch's cost (3-4
#   cycles, 1.2.1); a loop that did not yield would hold the pipeline for
#   its whole quantum against the node's other threads. An entry that is
#   not in the table is a fault with `waits`/`waitr`; the loop reads it as
#   Empty and goes on polling.
    .ifndef SCMP_WAIT_POLL
    .equ SCMP_WAIT_POLL, 0
    .endif

# SR_WAIT_SEND id, tmp: returns once send `id` is Complete (tmp clobbered
# when polling).
.macro SR_WAIT_SEND id, tmp
    .if SCMP_WAIT_POLL
95: ldss \tmp, \id
    addi \tmp, \tmp, -SCMP_SEND_COMPLETE
    beqz \tmp, 96f
    yield
    j 95b
96:
    .else
    waits \id
    .endif
.endm

# SR_WAIT_RECEIVE id, tmp: returns once receive `id` is Complete.
.macro SR_WAIT_RECEIVE id, tmp
    .if SCMP_WAIT_POLL
97: ldsr \tmp, \id
    addi \tmp, \tmp, -SCMP_RECEIVE_COMPLETE
    beqz \tmp, 98f
    yield
    j 97b
98:
    .else
    waitr \id
    .endif
.endm

    .text

# SCMPSetMode(a0 = SCMP_MODE_RENDEZVOUS or SCMP_MODE_READY)
#   The mode of this node's later SCMPSendInt, SCMPSendFloat, SCMPSend,
#   SCMPSendNB and getBlock transfers (all threads of the node). Ready mode
#   skips the RTS/CTS handshake: the receive must be posted before the data
#   arrives, or the receiving NIU discards it (thesis 5.7). The collectives
#   do not follow this setting (see their transport below).
    .globl SCMPSetMode
    .type SCMPSetMode, @function
SCMPSetMode:
    la t0, sr_send_mode
    sw a0, 0(t0)
    ret
    .size SCMPSetMode, . - SCMPSetMode

# The header of a data message in the node's mode: dst a0, id a1; t0 clobbered.
.macro SR_DATA_HEADER
    lw t0, sr_send_mode
    bnez t0, 81f
    sendh a0, rdv, a1
    j 82f
81: sendh a0, ready, a1
82:
.endm

# SCMPSendInt(a0 = dst_node, a1 = message_id, a2 = value)
#   Sends one word. Returns once header and word are in this context's
#   transmission queue (the value is copied, so nothing waits for the
#   receiver); the send entry stays until SCMPClearSend, which needs it
#   Complete (SCMPWaitSend). NIU: a send-table entry; suspends while the id
#   is in the table or the table or the queue is full.
    .globl SCMPSendInt
    .type SCMPSendInt, @function
SCMPSendInt:
    SR_DATA_HEADER
    sende a2
    ret
    .size SCMPSendInt, . - SCMPSendInt

# SCMPSendFloat(a0 = dst_node, a1 = message_id, fa0 = value)
#   Sends the double as two words (low first), as SCMPSendInt sends one.
    .globl SCMPSendFloat
    .type SCMPSendFloat, @function
SCMPSendFloat:
    addi sp, sp, -16
    fsd fa0, 0(sp)
    lw t1, 0(sp)
    lw t2, 4(sp)
    addi sp, sp, 16
    SR_DATA_HEADER
    send2e t1, t2
    ret
    .size SCMPSendFloat, . - SCMPSendFloat

# SCMPSendNB(a0 = dst_node, a1 = message_id, a2 = address, a3 = stride,
#            a4 = count)
#   Sends count >= 1 words, address + i*stride words, as one message.
#   Non-blocking: returns once the request is queued (`sendme`: two queue
#   entries; the NIU reads memory when the message goes, after the CTS in
#   Rendezvous mode), so the words must not change until the send is
#   Complete (SCMPPollSend, SCMPWaitSend). Count 0 is a fault of the NIU (a
#   message needs a word). The thesis lists SCMPSend's arguments as (dst,
#   id, stride, address, count) and SCMPSendNB's as (dst, id, address,
#   stride, count); both routines here take the second order.
    .globl SCMPSendNB
    .type SCMPSendNB, @function
SCMPSendNB:
    SR_DATA_HEADER
    li t1, SR_SENDM_MAX_WORDS
    slli t2, a3, 16             # the stride, in sendm's format
1:  bleu a4, t1, 2f
    or t0, t2, t1               # a full chunk, more to come
    sendm a2, t0
    sub a4, a4, t1
    mul t0, t1, a3
    slli t0, t0, 2
    add a2, a2, t0
    j 1b
2:  or t0, t2, a4
    sendme a2, t0
    ret
    .size SCMPSendNB, . - SCMPSendNB

# SCMPSend(a0 = dst_node, a1 = message_id, a2 = address, a3 = stride,
#          a4 = count)
#   SCMPSendNB, then waits (SR_WAIT_SEND: `waits`, or polling) until the send is
#   Complete: the last word has left the NIU and the words may change. In
#   Rendezvous mode that needs the receiver's receive. The entry stays
#   until SCMPClearSend.
    .globl SCMPSend
    .type SCMPSend, @function
SCMPSend:
    mv t3, a1
    mv t4, ra
    call SCMPSendNB
    SR_WAIT_SEND t3, t0
    mv ra, t4
    ret
    .size SCMPSend, . - SCMPSend

# SCMPPollSend(a0 = message_id) -> a0 = the send's state
#   SCMP_SEND_EMPTY (no such send), _IN_USE, _IN_PROGRESS or _COMPLETE
#   (`ldss`; never blocks).
    .globl SCMPPollSend
    .type SCMPPollSend, @function
SCMPPollSend:
    ldss a0, a0
    ret
    .size SCMPPollSend, . - SCMPPollSend

# SCMPWaitSend(a0 = message_id)
#   Returns once the send is Complete (SR_WAIT_SEND: `waits`, the context
#   suspends and the NIU wakes it, a send not in the table a fault; or with
#   SCMP_WAIT_POLL an `ldss` loop that yields).
    .globl SCMPWaitSend
    .type SCMPWaitSend, @function
SCMPWaitSend:
    SR_WAIT_SEND a0, t0
    ret
    .size SCMPWaitSend, . - SCMPWaitSend

# SCMPClearSend(a0 = message_id)
#   Removes the send's entry (`rms`) so that the id can be used again. The
#   send must be Complete: clearing one in flight, or an id with no entry,
#   is a fault.
    .globl SCMPClearSend
    .type SCMPClearSend, @function
SCMPClearSend:
    rms a0
    ret
    .size SCMPClearSend, . - SCMPClearSend

# SCMPReceiveNB(a0 = message_id, a1 = address, a2 = stride)
#   Posts a receive (`str`): the message's words go to address +
#   i*stride words. Returns at once, unless the id already has an entry
#   other than an RTS waiting for it (or the table is full): then the
#   context suspends until it can post. An RTS that came first gets its CTS
#   now.
    .globl SCMPReceiveNB
    .type SCMPReceiveNB, @function
SCMPReceiveNB:
    str a0, a1, a2
    ret
    .size SCMPReceiveNB, . - SCMPReceiveNB

# SCMPReceive(a0 = message_id, a1 = address, a2 = stride)
#   SCMPReceiveNB, then waits until the words are stored (Complete).
#   The entry stays until SCMPClearReceive.
    .globl SCMPReceive
    .type SCMPReceive, @function
SCMPReceive:
    str a0, a1, a2
    SR_WAIT_RECEIVE a0, t0
    ret
    .size SCMPReceive, . - SCMPReceive

# SCMPPollReceive(a0 = message_id) -> a0 = the receive's state
#   SCMP_RECEIVE_EMPTY, _IN_USE, _IN_PROGRESS, _RTS_RECEIVED or _COMPLETE
#   (`ldsr`; never blocks).
    .globl SCMPPollReceive
    .type SCMPPollReceive, @function
SCMPPollReceive:
    ldsr a0, a0
    ret
    .size SCMPPollReceive, . - SCMPPollReceive

# SCMPWaitReceive(a0 = message_id)
#   Returns once the receive is Complete (SR_WAIT_RECEIVE: `waitr`, a
#   receive not in the table a fault; or with SCMP_WAIT_POLL an `ldsr`
#   loop that yields).
    .globl SCMPWaitReceive
    .type SCMPWaitReceive, @function
SCMPWaitReceive:
    SR_WAIT_RECEIVE a0, t0
    ret
    .size SCMPWaitReceive, . - SCMPWaitReceive

# SCMPClearReceive(a0 = message_id)
#   Removes the receive's entry (`rmr`): a Complete one, or a posted one
#   no data has reached yet (which cancels it). One in progress, or an id
#   with no entry, is a fault.
    .globl SCMPClearReceive
    .type SCMPClearReceive, @function
SCMPClearReceive:
    rmr a0
    ret
    .size SCMPClearReceive, . - SCMPClearReceive

# getBlock(a0 = node_id, a1 = dst_addr, a2 = dst_stride, a3 = src_addr
#          (char **: the address of a pointer word, the same on every node),
#          a4 = src_offset (bytes), a5 = src_stride, a6 = message_id,
#          a7 = num_words)
#   Posts a receive for message_id into dst_addr (dst_stride apart), then
#   creates a thread on node_id (sr_getblock_handler) that sends num_words
#   words from its own *src_addr + src_offset, src_stride apart, with
#   SCMPSend and that id, in node_id's mode (the receive is posted before
#   the request leaves, so Ready mode is safe). Non-blocking: wait with
#   SCMPWaitReceive(message_id), then SCMPClearReceive. NIU: a receive
#   entry and a thread message of 6 argument flits here; on node_id a
#   context and a send entry, which the thread clears.
    .globl getBlock
    .type getBlock, @function
getBlock:
    str a6, a1, a2
    csrr t0, nodeid
    la t1, sr_getblock_handler
    sendh a0, thread, t1
    send2 t0, a3
    send2 a4, a5
    send2e a6, a7
    ret
    .size getBlock, . - getBlock

# The thread getBlock starts on the data's owner: a0 = requesting node,
# a1 = src_addr (char **), a2 = src_offset, a3 = src_stride, a4 = id,
# a5 = num_words.
    .type sr_getblock_handler, @function
sr_getblock_handler:
    lw t0, 0(a1)
    add a2, t0, a2
    mv s0, a4
    mv a1, a4
    mv a4, a5
    call SCMPSend
    rms s0
    endt
    .size sr_getblock_handler, . - sr_getblock_handler

# Collective transport (scmp_common.s): messages of two words, id = kind
# 0xF, the epoch's low 15 bits in 27..13, and in 12..0 the slot (0..11 up)
# or 0x400 + the receiving node (down; 0x400..0x13ff on a 64 x 64 mesh), so
# that no two sends of one node or receives of one node share an id during
# a call. Receives are posted when the call
# starts. Up messages go in Rendezvous mode (the parent may not have
# started the call yet: its CTS comes once it has); down messages in Ready
# mode, which is safe: a child posts its down receive before it sends up,
# and the parent sends down only after that.
.macro SR_COLL_ID rd, slot, epoch, node, tmp
    slli \tmp, \epoch, 17
    srli \tmp, \tmp, 4
    li \rd, SCMP_COLL_DOWN_SLOT
    bne \slot, \rd, 91f
    addi \rd, \node, 0x400
    j 92f
91: mv \rd, \slot
92: or \rd, \rd, \tmp
    li \tmp, SCMP_ID_KIND_LIBRARY << SCMP_ID_KIND_SHIFT
    or \rd, \rd, \tmp
.endm

scmp_coll_post:
    csrr t2, nodeid
    SR_COLL_ID t3, a0, a1, t2, t4
    la t0, sr_coll_slots
    slli t1, a0, 3
    add t0, t0, t1
    li t1, 1
    str t3, t0, t1
    ret

scmp_coll_send:
    SR_COLL_ID t3, a1, a4, a0, t4
    li t0, SCMP_COLL_DOWN_SLOT
    beq a1, t0, 1f
    sendh a0, rdv, t3
    j 2f
1:  sendh a0, ready, t3         # down: the child posted before it sent up
2:  send2e a2, a3
    la t0, sr_coll_sent         # remembered for scmp_coll_finish
    lw t1, 0(t0)
    addi t2, t1, 1
    sw t2, 0(t0)
    slli t1, t1, 2
    add t1, t1, t0
    sw t3, 4(t1)
    ret

scmp_coll_wait:
    csrr t2, nodeid
    SR_COLL_ID t3, a0, a1, t2, t4
    SR_WAIT_RECEIVE t3, t4
    rmr t3
    la t0, sr_coll_slots
    slli t1, a0, 3
    add t0, t0, t1
    lw a0, 0(t0)
    lw a1, 4(t0)
    ret

scmp_coll_finish:
    la t0, sr_coll_sent
    lw t1, 0(t0)
    sw zero, 0(t0)
    addi t2, t0, 4
1:  beqz t1, 2f
    lw t3, 0(t2)
    SR_WAIT_SEND t3, t4
    rms t3
    addi t2, t2, 4
    addi t1, t1, -1
    j 1b
2:  ret

    .bss
    .p2align 2
sr_send_mode: .zero 4
sr_coll_sent: .zero 4 + 4 * SCMP_COLL_SLOTS     # count, then the ids
sr_coll_slots: .zero 8 * SCMP_COLL_SLOTS        # value low, high
    .text
