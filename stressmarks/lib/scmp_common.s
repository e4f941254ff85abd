# scmp_common.s: what the active-messages library (am.s) and the
# send-and-receive library (sr.s) share: thread creation (thread messages are
# the same in both NIU designs, thesis 5.3), the message-id convention, and
# the mesh collectives (barrier, global reductions), whose tree is the same in
# both libraries and whose transport each library supplies through four
# hooks. am.s and sr.s include this file; a program includes one of them,
# never this file alone. docs/libraries.md describes both libraries.
#
# Calling convention: RISC-V ilp32d. Arguments a0..a7 / fa0..fa7, results
# a0 (a1) / fa0; t*, a*, ft*, fa* are clobbered, s*, fs*, sp preserved.

# The SCMP mnemonics for GNU as (`scmp asm` knows them and skips the file):
# GNU as finds it with `-I stressmarks/lib`.
    .include "scmp_insn.s"

# Message ids (stressmarks-spec section 0): kind in bits 31..28, step in
# 27..12, index (or source) in 11..0, so that receives posted at the same
# time on one node never share an id. Kind 0xF belongs to the libraries
# (the collectives); programs use kinds 0x0..0xE.
    .equ SCMP_ID_KIND_SHIFT, 28
    .equ SCMP_ID_STEP_SHIFT, 12
    .equ SCMP_ID_INDEX_MASK, 0xFFF
    .equ SCMP_ID_KIND_LIBRARY, 0xF

# scmp_coll_tree (at the end of the file): the node's collective calls so far (0: the tree is not
# built yet), its parent (-1 at the root) and the slot it reports in there,
# and its children as (slot, node) pairs.
    .equ SCMP_TREE_EPOCH, 0
    .equ SCMP_TREE_PARENT, 4
    .equ SCMP_TREE_PARENT_SLOT, 8
    .equ SCMP_TREE_COUNT, 12
    .equ SCMP_TREE_CHILDREN, 16

# Collective operations (the op argument of scmp_collective).
    .equ SCMP_OP_BARRIER, 0
    .equ SCMP_OP_SUM_INT, 1
    .equ SCMP_OP_MIN_INT, 2
    .equ SCMP_OP_MAX_INT, 3
    .equ SCMP_OP_SUM_DOUBLE, 4
    .equ SCMP_OP_MIN_DOUBLE, 5
    .equ SCMP_OP_MAX_DOUBLE, 6

# Collective slots: a node's children report in slot r (a child along x at
# round r) or 6 + r (along y); the value coming down arrives in slot 12.
# Six rounds per dimension cover meshes up to 64 x 64 (isa_spec::msg::
# MAX_MESH_DIM).
    .equ SCMP_COLL_Y_SLOTS, 6
    .equ SCMP_COLL_DOWN_SLOT, 12
    .equ SCMP_COLL_SLOTS, 13

# The frame of a routine that keeps state in s0..s11, for programs:
# FRAME_ENTER makes an 80-byte frame saving ra and s0..s11 (0(sp)..27(sp)
# are the routine's own); FRAME_LEAVE restores them and returns, which is
# FRAME_RESTORE (the registers) then FRAME_RETURN (pop and ret), for
# routines that restore more in between.
.macro FRAME_ENTER
    addi sp, sp, -80
    sw ra, 76(sp)
    sw s0, 72(sp)
    sw s1, 68(sp)
    sw s2, 64(sp)
    sw s3, 60(sp)
    sw s4, 56(sp)
    sw s5, 52(sp)
    sw s6, 48(sp)
    sw s7, 44(sp)
    sw s8, 40(sp)
    sw s9, 36(sp)
    sw s10, 32(sp)
    sw s11, 28(sp)
.endm
.macro FRAME_RESTORE
    lw ra, 76(sp)
    lw s0, 72(sp)
    lw s1, 68(sp)
    lw s2, 64(sp)
    lw s3, 60(sp)
    lw s4, 56(sp)
    lw s5, 52(sp)
    lw s6, 48(sp)
    lw s7, 44(sp)
    lw s8, 40(sp)
    lw s9, 36(sp)
    lw s10, 32(sp)
    lw s11, 28(sp)
.endm
.macro FRAME_RETURN
    addi sp, sp, 80
    ret
.endm
.macro FRAME_LEAVE
    FRAME_RESTORE
    FRAME_RETURN
.endm

    .text

# createThread(a0 = dst_node, a1 = addr, a2 = callback, a3..a7 = arguments)
#   Creates a thread on dst_node that calls addr(a0..a4 = the five
#   arguments) as an ordinary routine (it returns with ret). If callback is
#   not 0, the routine's result a0 is sent back: a thread on the calling
#   node then calls callback(a0 = result). Thesis Tables 3.2 and 4.1; the
#   thesis does not say what the callback is, this is our reading.
#   NIU: one thread message of 8 argument flits (the library's stub is its
#   handler); the destination needs a free context (the message waits in
#   the network until one is free). Does not block beyond the messaging
#   instructions themselves (queue full, original NIU busy).
    .globl createThread
    .type createThread, @function
createThread:
    csrr t0, nodeid
    la t1, scmp_thread_stub
    sendh a0, thread, t1
    send2 a1, a2
    send2 t0, a3
    send2 a4, a5
    send2e a6, a7
    ret
    .size createThread, . - createThread

# parExecute(a0 = num_nodes, a1 = addr, a2..a6 = arguments)
#   createThread(node, addr, 0, arguments) on nodes 0 .. num_nodes-1 in
#   increasing order (the calling node included). Returns once the last
#   thread message is queued; it does not wait for the threads (use a
#   barrier or a reduction for that).
#   NIU: num_nodes thread messages of 8 argument flits.
    .globl parExecute
    .type parExecute, @function
parExecute:
    csrr t0, nodeid
    la t1, scmp_thread_stub
    li t2, 0
    beqz a0, 2f
1:  sendh t2, thread, t1
    send2 a1, zero
    send2 t0, a2
    send2 a3, a4
    send2e a5, a6
    addi t2, t2, 1
    bltu t2, a0, 1b
2:  ret
    .size parExecute, . - parExecute

# The handler of every thread createThread and parExecute make. A new
# context starts here with a0 = addr, a1 = callback, a2 = the creating
# node, a3..a7 = the arguments, sp at its own stack and ra = 0.
# Assembled for C (`scmp cc` defines SCMP_C_TLS), the thread first gets
# its own thread-local storage (errno, `__thread` variables) at the top of
# its stack: tp points at it and picolibc's _init_tls copies the .tdata
# image and zeroes .tbss. (Without it tp is 0 and every such thread would
# share whatever lies at tp's offsets from address 0.)
    .type scmp_thread_stub, @function
scmp_thread_stub:
.ifdef SCMP_C_TLS
    lui t0, %hi(__tls_size)
    addi t0, t0, %lo(__tls_size)
    sub sp, sp, t0
    lui t1, %hi(__tls_align)
    addi t1, t1, %lo(__tls_align)
    neg t1, t1
    and sp, sp, t1              # aligned as the block needs
    andi sp, sp, -16            # and as the stack needs
    mv tp, sp
    addi sp, sp, -32
    sw a0, 0(sp)
    sw a1, 4(sp)
    sw a2, 8(sp)
    sw a3, 12(sp)
    sw a4, 16(sp)
    sw a5, 20(sp)
    sw a6, 24(sp)
    sw a7, 28(sp)
    mv a0, tp
    call _init_tls
    lw a0, 0(sp)
    lw a1, 4(sp)
    lw a2, 8(sp)
    lw a3, 12(sp)
    lw a4, 16(sp)
    lw a5, 20(sp)
    lw a6, 24(sp)
    lw a7, 28(sp)
    addi sp, sp, 32
.endif
    mv s0, a1
    mv s1, a2
    mv t0, a0
    mv a0, a3
    mv a1, a4
    mv a2, a5
    mv a3, a6
    mv a4, a7
    jalr t0
    beqz s0, 1f
    mv a3, a0                   # callback(result) on the creating node
    mv a0, s1
    mv a1, s0
    li a2, 0
    li a4, 0
    li a5, 0
    li a6, 0
    li a7, 0
    call createThread
1:  endt
    .size scmp_thread_stub, . - scmp_thread_stub

# SCMPBarrier()
#   Returns once every node of the mesh has called it. One thread per node
#   takes part; every node must make the same sequence of collective calls.
#   Algorithm and NIU use: see scmp_collective.
    .globl SCMPBarrier
    .type SCMPBarrier, @function
SCMPBarrier:
    li a0, SCMP_OP_BARRIER
    li a1, 0
    li a2, 0
    tail scmp_collective
    .size SCMPBarrier, . - SCMPBarrier

# SCMPReduceSumInt(a0 = value) -> a0 = the wrapping 32-bit sum over all nodes
# SCMPReduceMinInt(a0 = value) -> a0 = the smallest value (signed)
# SCMPReduceMaxInt(a0 = value) -> a0 = the largest value (signed)
#   Every node gets the result (an all-reduce). Blocks like SCMPBarrier.
    .globl SCMPReduceSumInt
    .type SCMPReduceSumInt, @function
SCMPReduceSumInt:
    mv a1, a0
    li a2, 0
    li a0, SCMP_OP_SUM_INT
    tail scmp_collective
    .size SCMPReduceSumInt, . - SCMPReduceSumInt

    .globl SCMPReduceMinInt
    .type SCMPReduceMinInt, @function
SCMPReduceMinInt:
    mv a1, a0
    li a2, 0
    li a0, SCMP_OP_MIN_INT
    tail scmp_collective
    .size SCMPReduceMinInt, . - SCMPReduceMinInt

    .globl SCMPReduceMaxInt
    .type SCMPReduceMaxInt, @function
SCMPReduceMaxInt:
    mv a1, a0
    li a2, 0
    li a0, SCMP_OP_MAX_INT
    tail scmp_collective
    .size SCMPReduceMaxInt, . - SCMPReduceMaxInt

# SCMPReduceSumDouble(fa0 = value) -> fa0 = the sum over all nodes
# SCMPReduceMinDouble(fa0 = value) -> fa0 = the smallest (fmin.d)
# SCMPReduceMaxDouble(fa0 = value) -> fa0 = the largest (fmax.d)
#   Every node gets the same result. Sums round each addition to nearest
#   even in the tree's fixed order (below), so a mesh always gives the same
#   bits, though another mesh may round differently. Blocks like SCMPBarrier.
    .globl SCMPReduceSumDouble
    .type SCMPReduceSumDouble, @function
SCMPReduceSumDouble:
    li a0, SCMP_OP_SUM_DOUBLE
    j scmp_reduce_double
    .size SCMPReduceSumDouble, . - SCMPReduceSumDouble

    .globl SCMPReduceMinDouble
    .type SCMPReduceMinDouble, @function
SCMPReduceMinDouble:
    li a0, SCMP_OP_MIN_DOUBLE
    j scmp_reduce_double
    .size SCMPReduceMinDouble, . - SCMPReduceMinDouble

    .globl SCMPReduceMaxDouble
    .type SCMPReduceMaxDouble, @function
SCMPReduceMaxDouble:
    li a0, SCMP_OP_MAX_DOUBLE
    j scmp_reduce_double
    .size SCMPReduceMaxDouble, . - SCMPReduceMaxDouble

# A double reduction: a0 = op, fa0 = value -> fa0 (the two words of a double
# travel as one message).
scmp_reduce_double:
    addi sp, sp, -16
    sw ra, 12(sp)
    fsd fa0, 0(sp)
    lw a1, 0(sp)
    lw a2, 4(sp)
    call scmp_collective
    sw a0, 0(sp)
    sw a1, 4(sp)
    fld fa0, 0(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# scmp_collective(a0 = op, a1, a2 = value words) -> a0, a1 = result words
#
# A binomial tree taken one mesh dimension at a time: along each row towards
# x = 0 (at round r, a node whose lowest set bit of x is r sends to x - 2^r,
# having combined what x + 2^j, j < r, sent it), then the same along column
# 0 towards y = 0; node 0 then holds the result, which goes back down the
# same tree (largest subtree first). Why this tree: every message stays in
# one row or one column, so with dimension-order routing the rows'
# messages never share a link, and a W x H mesh needs
# ceil(log2 W) + ceil(log2 H) rounds each way (6 + 6 on 8 x 8) instead of the
# W + H - 2 of a chain, while no node handles more than that many children
# (a flat gather would make node 0 take P - 1 messages in a row, one flit a
# cycle through its ejection port, and run P - 1 combines). The node's place
# in the tree is worked out at its first call (scmp_coll_tree).
#
# Transport hooks, defined by the including library (standard convention;
# they may clobber t*, a*, ft*):
#   scmp_coll_post(a0 = slot, a1 = epoch)        expect a message in slot
#   scmp_coll_send(a0 = node, a1 = slot, a2, a3 = words, a4 = epoch)
#   scmp_coll_wait(a0 = slot, a1 = epoch) -> a0, a1   the words that came
#   scmp_coll_finish(a0 = epoch)                 the node is done sending
# epoch counts this node's collective calls (1, 2, ...); as every node makes
# the same sequence of calls, it names the call on every node.
    .type scmp_collective, @function
scmp_collective:
    addi sp, sp, -32
    sw ra, 28(sp)
    sw s0, 24(sp)
    sw s1, 20(sp)
    sw s2, 16(sp)
    sw s3, 12(sp)
    sw s4, 8(sp)
    sw s5, 4(sp)
    mv s0, a0                   # op
    mv s1, a1                   # the value so far
    mv s2, a2
    la s4, scmp_coll_tree
    lw s5, SCMP_TREE_EPOCH(s4)
    bnez s5, 1f
    call scmp_coll_build        # first call: our place in the tree
1:  addi s5, s5, 1
    sw s5, SCMP_TREE_EPOCH(s4)
    li s3, 0                    # expect every message of this call
2:  lw t0, SCMP_TREE_COUNT(s4)
    bgeu s3, t0, 3f
    slli t1, s3, 3
    add t1, t1, s4
    lw a0, SCMP_TREE_CHILDREN(t1)
    mv a1, s5
    call scmp_coll_post
    addi s3, s3, 1
    j 2b
3:  lw t0, SCMP_TREE_PARENT(s4)
    bltz t0, 4f
    li a0, SCMP_COLL_DOWN_SLOT
    mv a1, s5
    call scmp_coll_post
4:  li s3, 0                    # combine the children's values in order
5:  lw t0, SCMP_TREE_COUNT(s4)
    bgeu s3, t0, 6f
    slli t1, s3, 3
    add t1, t1, s4
    lw a0, SCMP_TREE_CHILDREN(t1)
    mv a1, s5
    call scmp_coll_wait
    beqz s0, 55f                # the barrier: nothing to combine
    mv a2, a0
    mv a3, a1
    mv a0, s1
    mv a1, s2
    mv a4, s0
    call scmp_coll_combine
    mv s1, a0
    mv s2, a1
55: addi s3, s3, 1
    j 5b
6:  lw a0, SCMP_TREE_PARENT(s4) # up, then wait for the result
    bltz a0, 7f
    lw a1, SCMP_TREE_PARENT_SLOT(s4)
    mv a2, s1
    mv a3, s2
    mv a4, s5
    call scmp_coll_send
    li a0, SCMP_COLL_DOWN_SLOT
    mv a1, s5
    call scmp_coll_wait
    mv s1, a0
    mv s2, a1
7:  lw s3, SCMP_TREE_COUNT(s4)  # down, largest subtree first
8:  beqz s3, 9f
    addi s3, s3, -1
    slli t1, s3, 3
    add t1, t1, s4
    lw a0, SCMP_TREE_CHILDREN+4(t1)
    li a1, SCMP_COLL_DOWN_SLOT
    mv a2, s1
    mv a3, s2
    mv a4, s5
    call scmp_coll_send
    j 8b
9:  mv a0, s5
    call scmp_coll_finish
    mv a0, s1
    mv a1, s2
    lw ra, 28(sp)
    lw s0, 24(sp)
    lw s1, 20(sp)
    lw s2, 16(sp)
    lw s3, 12(sp)
    lw s4, 8(sp)
    lw s5, 4(sp)
    addi sp, sp, 32
    ret
    .size scmp_collective, . - scmp_collective

# scmp_coll_build(): fills scmp_coll_tree (s4 points at it) with this
# node's parent and children, in the order their values are combined.
# Clobbers t*, a*.
scmp_coll_build:
    csrr a0, nodeid
    csrr a1, meshw
    csrr a2, meshh
    remu a3, a0, a1             # x
    divu a4, a0, a1             # y
    li a5, 0                    # children listed
    li t0, -1
    sw t0, SCMP_TREE_PARENT(s4)
    li t1, 0                    # round
    li t2, 1                    # 2^round
1:  bgeu t2, a1, 4f             # along the row
    and t3, a3, t2
    beqz t3, 2f
    sub t4, a0, t2              # lowest set bit of x: the parent
    sw t4, SCMP_TREE_PARENT(s4)
    sw t1, SCMP_TREE_PARENT_SLOT(s4)
    j 7f
2:  add t3, a3, t2
    bgeu t3, a1, 3f
    slli t4, a5, 3
    add t4, t4, s4
    sw t1, SCMP_TREE_CHILDREN(t4)
    add t5, a0, t2
    sw t5, SCMP_TREE_CHILDREN+4(t4)
    addi a5, a5, 1
3:  addi t1, t1, 1
    slli t2, t2, 1
    j 1b
4:  li t1, 0                    # x = 0: along column 0
    li t2, 1
5:  bgeu t2, a2, 7f
    mul t6, t2, a1              # 2^round rows
    and t3, a4, t2
    beqz t3, 6f
    sub t4, a0, t6
    sw t4, SCMP_TREE_PARENT(s4)
    addi t5, t1, SCMP_COLL_Y_SLOTS
    sw t5, SCMP_TREE_PARENT_SLOT(s4)
    j 7f
6:  add t3, a4, t2
    bgeu t3, a2, 65f
    slli t4, a5, 3
    add t4, t4, s4
    addi t5, t1, SCMP_COLL_Y_SLOTS
    sw t5, SCMP_TREE_CHILDREN(t4)
    add t5, a0, t6
    sw t5, SCMP_TREE_CHILDREN+4(t4)
    addi a5, a5, 1
65: addi t1, t1, 1
    slli t2, t2, 1
    j 5b
7:  sw a5, SCMP_TREE_COUNT(s4)
    ret

# a0, a1 = a0, a1 (op) a2, a3 for op a4; doubles as (low, high) words.
    .type scmp_coll_combine, @function
scmp_coll_combine:
    li t0, SCMP_OP_SUM_INT
    beq a4, t0, 1f
    li t0, SCMP_OP_MIN_INT
    beq a4, t0, 2f
    li t0, SCMP_OP_MAX_INT
    beq a4, t0, 3f
    li t0, SCMP_OP_SUM_DOUBLE
    addi sp, sp, -16
    sw a0, 0(sp)
    sw a1, 4(sp)
    sw a2, 8(sp)
    sw a3, 12(sp)
    fld ft0, 0(sp)
    fld ft1, 8(sp)
    bne a4, t0, 4f
    fadd.d ft0, ft0, ft1, rne
    j 6f
4:  li t0, SCMP_OP_MIN_DOUBLE
    bne a4, t0, 5f
    fmin.d ft0, ft0, ft1
    j 6f
5:  fmax.d ft0, ft0, ft1
6:  fsd ft0, 0(sp)
    lw a0, 0(sp)
    lw a1, 4(sp)
    addi sp, sp, 16
    ret
1:  add a0, a0, a2
    ret
2:  ble a0, a2, 9f
    mv a0, a2
    ret
3:  bge a0, a2, 9f
    mv a0, a2
9:  ret
    .size scmp_coll_combine, . - scmp_coll_combine

# scmp_coll_tree (its layout is at the top of the file).
    .bss
    .p2align 2
scmp_coll_tree: .zero SCMP_TREE_CHILDREN + 8 * (SCMP_COLL_SLOTS - 1)
    .text
