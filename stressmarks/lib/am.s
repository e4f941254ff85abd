# am.s: the active-messages library for SCMP's original NIU design
# (`niu.design = "original"`, `scmp run --niu original`; thesis 3.3, Tables
# 3.2 and 3.3). Data messages carry their destination address and are stored
# by DMA with no notification, so a receiver learns of data by a flag that a
# second message raises; threads are created on other nodes to request data.
# With createThread, parExecute, SCMPBarrier and the reductions of
# scmp_common.s. docs/libraries.md describes the library; a program includes
# it once (`.include "PATH/stressmarks/lib/am.s"`) and not sr.s beside it.
#
# Calling convention: RISC-V ilp32d (a0..a7, fa0..; t*, a*, ft*, fa*
# clobbered; s*, fs*, sp kept). Strides are in words. The NIU limits: a
# destination stride below 2^17, a source stride below 2^16.
#
# Only the thread that called a routine may rely on what it returns; several
# threads of a node may send at once (the original NIU has one transmission
# queue, so a thread's messaging instruction waits while another thread's
# message is being written or a sendm copy runs: stall `niu_busy`).

    .include "scmp_common.s"

    .equ AM_SENDM_MAX_WORDS, 65535      # count field of sendm's second operand

    .text

# sendDataIntValue(a0 = dst_node, a1 = dst_addr, a2 = value)
#   Stores value at dst_addr on dst_node. One data message (head, address,
#   one word); returns once it is queued. Nothing tells dst_node it came.
    .globl sendDataIntValue
    .type sendDataIntValue, @function
sendDataIntValue:
    li t0, 1
    sendh a0, data, a1, t0
    sende a2
    ret
    .size sendDataIntValue, . - sendDataIntValue

# sendDataFloatValue(a0 = dst_node, a1 = dst_addr, fa0 = value)
#   Stores the double value at dst_addr (8 bytes, word-aligned) on dst_node:
#   one data message of its two words (low word first); returns once queued.
    .globl sendDataFloatValue
    .type sendDataFloatValue, @function
sendDataFloatValue:
    addi sp, sp, -16
    fsd fa0, 0(sp)
    lw t1, 0(sp)
    lw t2, 4(sp)
    addi sp, sp, 16
    li t0, 1
    sendh a0, data, a1, t0
    send2e t1, t2
    ret
    .size sendDataFloatValue, . - sendDataFloatValue

# sendDataBlockNB(a0 = dst_node, a1 = dst_addr, a2 = dst_stride,
#                 a3 = src_addr, a4 = src_stride, a5 = count)
#   Sends count words, src_addr + i*src_stride words, to dst_addr +
#   i*dst_stride words on dst_node (count 0: nothing). Non-blocking: returns
#   as soon as the NIU has started copying the block (`sendme`); the copy
#   into the transmission queue goes on meanwhile, and the block must not
#   change until this thread's next messaging instruction has issued (the
#   NIU holds every messaging instruction until the copy is done). One data
#   message per 65535 words.
    .globl sendDataBlockNB
    .type sendDataBlockNB, @function
sendDataBlockNB:
    li t3, 0                    # non-blocking
    j am_send_block
    .size sendDataBlockNB, . - sendDataBlockNB

# sendDataBlock(a0 = dst_node, a1 = dst_addr, a2 = dst_stride,
#               a3 = src_addr, a4 = src_stride, a5 = count)
#   As sendDataBlockNB, but blocking: returns once every word of the block
#   has been read into the transmission queue, so the block may change. The
#   last word goes with `sende` from a register: the NIU holds that
#   instruction until the copy of the others is done, and then the thread
#   has read the last word itself. (Stall `niu_busy` in the statistics.)
    .globl sendDataBlock
    .type sendDataBlock, @function
sendDataBlock:
    li t3, 1                    # blocking
    .size sendDataBlock, . - sendDataBlock
    # falls through

# The block sends; t3 = 1 to block. One message per AM_SENDM_MAX_WORDS.
am_send_block:
    beqz a5, 4f
    li t4, AM_SENDM_MAX_WORDS
    slli t5, a4, 16             # the source stride, in sendm's format
1:  mv t6, a5                   # the words of this message
    bleu t6, t4, 2f
    mv t6, t4
2:  sendh a0, data, a1, a2
    sub a5, a5, t6
    bnez t3, 3f
    or t0, t5, t6
    sendme a3, t0
    j 5f
3:  addi t6, t6, -1             # blocking: the last word from a register
    mul t1, t6, a4
    slli t1, t1, 2
    add t1, t1, a3
    lw t2, 0(t1)
    beqz t6, 6f
    or t0, t5, t6
    sendm a3, t0
6:  sende t2
    addi t6, t6, 1
5:  beqz a5, 4f                 # the next message starts further on
    mul t0, t6, a2
    slli t0, t0, 2
    add a1, a1, t0
    mul t0, t6, a4
    slli t0, t0, 2
    add a3, a3, t0
    j 1b
4:  ret
    .size am_send_block, . - am_send_block

# getBlock(a0 = node_id, a1 = dst_addr, a2 = dst_stride, a3 = src_addr
#          (char **: the address of a pointer word, the same on every node),
#          a4 = src_offset (bytes), a5 = src_stride, a6 = num_words,
#          a7 = flag address or 0)
#   Requests num_words words from node_id: a thread there (am_getblock_handler)
#   reads its own *src_addr, adds src_offset, and sends the words from there,
#   src_stride apart, to dst_addr here, dst_stride apart (sendDataBlockNB),
#   then a second message that stores 1 into the flag word. With a7 = 0 the
#   flag is the calling context's own and getBlock blocks until it is raised
#   (polling, `yield` between looks); otherwise getBlock clears *a7 and
#   returns at once, and the caller waits for *a7 != 0 (amWaitFlag).
#   Thesis 3.4: messages are not delivered in order, so the flag can in
#   principle be raised before the last data words are stored (see
#   docs/libraries.md). NIU: one thread message of 8 argument flits here;
#   on node_id a context, a data message and a flag message.
    .globl getBlock
    .type getBlock, @function
getBlock:
    mv t2, a7
    bnez a7, 1f
    csrr t0, ctxid
    slli t0, t0, 2
    la t2, am_getblock_flags
    add t2, t2, t0
1:  sw zero, 0(t2)
    csrr t0, nodeid
    la t1, am_getblock_handler
    sendh a0, thread, t1
    send2 t0, a1
    send2 a2, a3
    send2 a4, a5
    send2e a6, t2
    bnez a7, 3f
2:  lw t0, 0(t2)                # blocking: wait for our own flag
    bnez t0, 3f
    yield
    j 2b
3:  ret
    .size getBlock, . - getBlock

# The thread getBlock starts on the data's owner: a0 = requesting node,
# a1 = dst_addr, a2 = dst_stride, a3 = src_addr (char **), a4 = src_offset,
# a5 = src_stride, a6 = num_words, a7 = the requester's flag address.
    .type am_getblock_handler, @function
am_getblock_handler:
    mv s0, a0
    mv s1, a7
    lw t0, 0(a3)
    add a3, t0, a4
    mv a4, a5
    mv a5, a6
    call sendDataBlockNB
    mv a0, s0                   # held by the NIU until the copy is done
    mv a1, s1
    li a2, 1
    call sendDataIntValue
    endt
    .size am_getblock_handler, . - am_getblock_handler

# amWaitFlag(a0 = flag address) -> a0 = the flag's value
#   Returns once the word at a0 is not 0 (polling, `yield` between looks so
#   that other threads of the node run); leaves the word as it is.
    .globl amWaitFlag
    .type amWaitFlag, @function
amWaitFlag:
    mv t1, a0
1:  lw a0, 0(t1)
    bnez a0, 2f
    yield
    j 1b
2:  ret
    .size amWaitFlag, . - amWaitFlag

# Collective transport (scmp_common.s): a child's value goes into its slot
# on the parent as one data message (low word, high word, then the epoch),
# and the result comes back the same way into slot 12. The words of one
# message are stored in order, so once a slot shows the epoch its value is
# there too: no separate flag message, and no race.
scmp_coll_post:
    ret

scmp_coll_send:
    la t0, am_coll_slots
    slli t1, a1, 4
    add t0, t0, t1
    li t1, 1
    sendh a0, data, t0, t1
    send2 a2, a3
    sende a4
    ret

scmp_coll_wait:
    la t0, am_coll_slots
    slli t1, a0, 4
    add t0, t0, t1
1:  lw t1, 8(t0)
    beq t1, a1, 2f
    yield
    j 1b
2:  lw a0, 0(t0)
    lw a1, 4(t0)
    ret

scmp_coll_finish:
    ret

    .bss
    .p2align 2
am_getblock_flags: .zero 64                 # one flag per context
am_coll_slots: .zero 16 * SCMP_COLL_SLOTS   # value low, high, epoch, unused
    .text
