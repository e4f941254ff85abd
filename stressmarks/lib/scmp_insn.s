# GENERATED from the isa-spec table (isa-spec/src/gnu.rs); do not edit.
# Regenerate: UPDATE_DOCS=1 cargo test -p isa-spec --test doc
#
# The SCMP instructions as GNU as macros over `.insn`, so GNU as (which
# does not know them) assembles the messaging libraries and programs to
# the same words as `scmp asm`: `riscv64-unknown-elf-as -march=rv32g
# -I stressmarks/lib prog.s` with `.include "scmp_insn.s"` (the
# libraries include it through scmp_common.s). `scmp asm` defines
# `__scmp_as__` and skips the macros: its own table reads the mnemonics.

    .ifndef __scmp_as__
    .equ nodeid, 0xcc0  # SCMP: this tile's node id, y * meshw + x
    .equ ctxid, 0xcc1  # SCMP: this thread's context number on its tile
    .equ meshw, 0xcc2  # SCMP: mesh width in tiles
    .equ meshh, 0xcc3  # SCMP: mesh height in tiles
    .equ ntiles, 0xcc4  # SCMP: number of tiles, meshw * meshh
    .equ nctx, 0xcc5  # SCMP: hardware thread contexts per tile

    # sendh rs1, thread|ready|rdv, rs2: thread header (thread: rs2 = handler) or data header (ready|rdv: rs2 = message id) to node rs1
    # sendh rs1, data, rs2, rs3: original active-message data header to node rs1: destination address rs2, stride rs3 (words)
    .macro sendh p0, p1, p2, p3
    .ifc \p1,data
      .insn r4 0x0b, 1, 0, x0, \p0, \p2, \p3
    .else
      .ifc \p1,thread
        .insn r 0x0b, 0, 0, x0, \p0, \p2
      .else
      .ifc \p1,ready
        .insn r 0x0b, 0, 1, x0, \p0, \p2
      .else
      .ifc \p1,rdv
        .insn r 0x0b, 0, 2, x0, \p0, \p2
      .else
        .error "sendh: unknown message type (takes thread, ready, rdv)"
      .endif
      .endif
      .endif
    .endif
    .endm

    # send rs1: enqueue one body flit rs1
    .macro send p0
    .insn r 0x0b, 2, 0, x0, \p0, x0
    .endm

    # sende rs1: enqueue one tail flit rs1 (ends the message)
    .macro sende p0
    .insn r 0x0b, 2, 1, x0, \p0, x0
    .endm

    # send2 rs1, rs2: enqueue body flits rs1, rs2
    .macro send2 p0, p1
    .insn r 0x0b, 3, 0, x0, \p0, \p1
    .endm

    # send2e rs1, rs2: enqueue body flit rs1 and tail flit rs2 (ends the message)
    .macro send2e p0, p1
    .insn r 0x0b, 3, 1, x0, \p0, \p1
    .endm

    # sendm rs1, rs2: send count = rs2[15:0] words from address rs1, stride rs2[31:16] words
    .macro sendm p0, p1
    .insn r 0x0b, 4, 0, x0, \p0, \p1
    .endm

    # sendme rs1, rs2: as sendm, the last word is the tail flit (ends the message)
    .macro sendme p0, p1
    .insn r 0x0b, 4, 1, x0, \p0, \p1
    .endm

    # ldss rd, rs1: rd = state of the send-table entry for message id rs1
    .macro ldss p0, p1
    .insn r 0x2b, 0, 0, \p0, \p1, x0
    .endm

    # ldsr rd, rs1: rd = state of the receive-table entry for message id rs1
    .macro ldsr p0, p1
    .insn r 0x2b, 1, 0, \p0, \p1, x0
    .endm

    # str rs1, rs2, rs3: post a receive: message id rs1 into address rs2 with stride rs3 (words)
    .macro str p0, p1, p2
    .insn r4 0x2b, 2, 0, x0, \p0, \p1, \p2
    .endm

    # rms rs1: remove the send-table entry for message id rs1
    .macro rms p0
    .insn r 0x2b, 3, 0, x0, \p0, x0
    .endm

    # rmr rs1: remove the receive-table entry for message id rs1
    .macro rmr p0
    .insn r 0x2b, 4, 0, x0, \p0, x0
    .endm

    # endt: end the current thread and free its context
    .macro endt 
    .insn 0x0000005b
    .endm

    # yield: give the pipeline to the next ready context
    .macro yield 
    .insn 0x0000105b
    .endm

    # waits rs1: suspend until the send-table entry for message id rs1 is Complete
    .macro waits p0
    .insn r 0x5b, 2, 0, x0, \p0, x0
    .endm

    # waitr rs1: suspend until the receive-table entry for message id rs1 is Complete
    .macro waitr p0
    .insn r 0x5b, 3, 0, x0, \p0, x0
    .endm

    .endif
