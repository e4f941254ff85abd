# swap.s: the runtime's handler of the context-exhaustion exception
# (`niu.context_exhausted = "swap"`; thesis 3.4: "After all of node B's
# thread contexts are consumed, thread messages will block at its NIU until
# some threads finish, or the exception handler can swap threads into
# memory"). A program run with "swap" links this file (`scmp run prog.s
# stressmarks/lib/swap.s`, `scmp stressmark` does it) or includes it; the
# emulator finds the two entry points by name and refuses to run without
# them. docs/network.md, "Context exhaustion", describes the mechanism.
#
# scmp_swap_out: the NIU chose a thread that does not hold the pipeline
# and holds nothing in the NIU, and raised the exception in its context:
# mepc holds its pc (the instruction it was suspended at issues again when
# it resumes), mcause 24. Running in that context, with the thread's own
# registers, the handler saves every register, fcsr and mepc in a frame on
# the thread's own stack (below its sp: nothing lives there), links the
# frame into the context's list (scmp_swap_top, by context) and ends
# (`endt`): the context is free for the thread message, whose thread the
# hardware starts with sp at the frame (the hardware keeps the sp the
# handler ended with), so the saved thread's stack and frame stay intact
# below and above nothing else.
#
# scmp_swap_in: a thread ended in a context holding saved threads; the
# hardware did not free the context but started this (mcause 25). It
# takes the last frame saved in this context, restores everything and
# returns to the saved pc (`mret`). Threads saved in a context resume in
# it, the last saved first: their stacks are the context's.
#
# Both run as ordinary instructions: their cycles are the swap's cost.

    .equ SCMP_SWAP_FRAME, 400       # 32 x (x0's slot unused) + 32 f + 4 words, 16-aligned
    .equ SCMP_SWAP_F, 128           # f0..f31, 8 bytes each
    .equ SCMP_SWAP_FCSR, 384
    .equ SCMP_SWAP_PC, 388
    .equ SCMP_SWAP_NEXT, 392        # the frame saved before it in this context
    .equ SCMP_SWAP_MAX_CONTEXTS, 16

    .text
    .globl scmp_swap_out
    .type scmp_swap_out, @function
scmp_swap_out:
    addi sp, sp, -SCMP_SWAP_FRAME
    sw x1, 4(sp)
    sw x3, 12(sp)
    sw x4, 16(sp)
    sw x5, 20(sp)
    sw x6, 24(sp)
    sw x7, 28(sp)
    sw x8, 32(sp)
    sw x9, 36(sp)
    sw x10, 40(sp)
    sw x11, 44(sp)
    sw x12, 48(sp)
    sw x13, 52(sp)
    sw x14, 56(sp)
    sw x15, 60(sp)
    sw x16, 64(sp)
    sw x17, 68(sp)
    sw x18, 72(sp)
    sw x19, 76(sp)
    sw x20, 80(sp)
    sw x21, 84(sp)
    sw x22, 88(sp)
    sw x23, 92(sp)
    sw x24, 96(sp)
    sw x25, 100(sp)
    sw x26, 104(sp)
    sw x27, 108(sp)
    sw x28, 112(sp)
    sw x29, 116(sp)
    sw x30, 120(sp)
    sw x31, 124(sp)
    addi t0, sp, SCMP_SWAP_FRAME    # the thread's sp
    sw t0, 8(sp)
    fsd f0, SCMP_SWAP_F+0(sp)
    fsd f1, SCMP_SWAP_F+8(sp)
    fsd f2, SCMP_SWAP_F+16(sp)
    fsd f3, SCMP_SWAP_F+24(sp)
    fsd f4, SCMP_SWAP_F+32(sp)
    fsd f5, SCMP_SWAP_F+40(sp)
    fsd f6, SCMP_SWAP_F+48(sp)
    fsd f7, SCMP_SWAP_F+56(sp)
    fsd f8, SCMP_SWAP_F+64(sp)
    fsd f9, SCMP_SWAP_F+72(sp)
    fsd f10, SCMP_SWAP_F+80(sp)
    fsd f11, SCMP_SWAP_F+88(sp)
    fsd f12, SCMP_SWAP_F+96(sp)
    fsd f13, SCMP_SWAP_F+104(sp)
    fsd f14, SCMP_SWAP_F+112(sp)
    fsd f15, SCMP_SWAP_F+120(sp)
    fsd f16, SCMP_SWAP_F+128(sp)
    fsd f17, SCMP_SWAP_F+136(sp)
    fsd f18, SCMP_SWAP_F+144(sp)
    fsd f19, SCMP_SWAP_F+152(sp)
    fsd f20, SCMP_SWAP_F+160(sp)
    fsd f21, SCMP_SWAP_F+168(sp)
    fsd f22, SCMP_SWAP_F+176(sp)
    fsd f23, SCMP_SWAP_F+184(sp)
    fsd f24, SCMP_SWAP_F+192(sp)
    fsd f25, SCMP_SWAP_F+200(sp)
    fsd f26, SCMP_SWAP_F+208(sp)
    fsd f27, SCMP_SWAP_F+216(sp)
    fsd f28, SCMP_SWAP_F+224(sp)
    fsd f29, SCMP_SWAP_F+232(sp)
    fsd f30, SCMP_SWAP_F+240(sp)
    fsd f31, SCMP_SWAP_F+248(sp)
    csrr t0, fcsr
    sw t0, SCMP_SWAP_FCSR(sp)
    csrr t0, mepc
    sw t0, SCMP_SWAP_PC(sp)
    # Push the frame on this context's list (only this context's code
    # touches its entry: no lock).
    csrr t0, ctxid
    slli t0, t0, 2
    la t1, scmp_swap_top
    add t1, t1, t0
    lw t2, 0(t1)
    sw t2, SCMP_SWAP_NEXT(sp)
    sw sp, 0(t1)
    endt                            # sp stays at the frame: the next thread's stack starts below
    .size scmp_swap_out, . - scmp_swap_out

    .globl scmp_swap_in
    .type scmp_swap_in, @function
scmp_swap_in:
    csrr t0, ctxid
    slli t0, t0, 2
    la t1, scmp_swap_top
    add t1, t1, t0
    lw sp, 0(t1)                    # the last frame saved here
    lw t2, SCMP_SWAP_NEXT(sp)
    sw t2, 0(t1)
    lw t0, SCMP_SWAP_PC(sp)
    csrw mepc, t0
    lw t0, SCMP_SWAP_FCSR(sp)
    csrw fcsr, t0
    fld f0, SCMP_SWAP_F+0(sp)
    fld f1, SCMP_SWAP_F+8(sp)
    fld f2, SCMP_SWAP_F+16(sp)
    fld f3, SCMP_SWAP_F+24(sp)
    fld f4, SCMP_SWAP_F+32(sp)
    fld f5, SCMP_SWAP_F+40(sp)
    fld f6, SCMP_SWAP_F+48(sp)
    fld f7, SCMP_SWAP_F+56(sp)
    fld f8, SCMP_SWAP_F+64(sp)
    fld f9, SCMP_SWAP_F+72(sp)
    fld f10, SCMP_SWAP_F+80(sp)
    fld f11, SCMP_SWAP_F+88(sp)
    fld f12, SCMP_SWAP_F+96(sp)
    fld f13, SCMP_SWAP_F+104(sp)
    fld f14, SCMP_SWAP_F+112(sp)
    fld f15, SCMP_SWAP_F+120(sp)
    fld f16, SCMP_SWAP_F+128(sp)
    fld f17, SCMP_SWAP_F+136(sp)
    fld f18, SCMP_SWAP_F+144(sp)
    fld f19, SCMP_SWAP_F+152(sp)
    fld f20, SCMP_SWAP_F+160(sp)
    fld f21, SCMP_SWAP_F+168(sp)
    fld f22, SCMP_SWAP_F+176(sp)
    fld f23, SCMP_SWAP_F+184(sp)
    fld f24, SCMP_SWAP_F+192(sp)
    fld f25, SCMP_SWAP_F+200(sp)
    fld f26, SCMP_SWAP_F+208(sp)
    fld f27, SCMP_SWAP_F+216(sp)
    fld f28, SCMP_SWAP_F+224(sp)
    fld f29, SCMP_SWAP_F+232(sp)
    fld f30, SCMP_SWAP_F+240(sp)
    fld f31, SCMP_SWAP_F+248(sp)
    lw x1, 4(sp)
    lw x3, 12(sp)
    lw x4, 16(sp)
    lw x5, 20(sp)
    lw x6, 24(sp)
    lw x7, 28(sp)
    lw x8, 32(sp)
    lw x9, 36(sp)
    lw x10, 40(sp)
    lw x11, 44(sp)
    lw x12, 48(sp)
    lw x13, 52(sp)
    lw x14, 56(sp)
    lw x15, 60(sp)
    lw x16, 64(sp)
    lw x17, 68(sp)
    lw x18, 72(sp)
    lw x19, 76(sp)
    lw x20, 80(sp)
    lw x21, 84(sp)
    lw x22, 88(sp)
    lw x23, 92(sp)
    lw x24, 96(sp)
    lw x25, 100(sp)
    lw x26, 104(sp)
    lw x27, 108(sp)
    lw x28, 112(sp)
    lw x29, 116(sp)
    lw x30, 120(sp)
    lw x31, 124(sp)
    lw sp, 8(sp)                    # last: the thread's own sp
    mret                            # to mepc, the thread's pc
    .size scmp_swap_in, . - scmp_swap_in

    # In .data, not .bss: this file is linked after a program's sources,
    # and programs whose heap starts at a label at the end of their .bss
    # (LU's lu_matrix, Neighborhood's nb_heap, Matrix's heap) take
    # everything after it for theirs: a .bss word here would be the
    # heap's first word, overwritten by the program and written by the
    # handler (it was: LU's blocks took frame addresses).
    .data
    .balign 4
scmp_swap_top:
    .zero 4 * SCMP_SWAP_MAX_CONTEXTS
