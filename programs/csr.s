# The read-only CSRs (cycle, instret, node id, context id, mesh size, tile and
# context counts) and the FP CSRs fflags, frm and fcsr.
# run: mesh=3x2 boot=all threads=1
    .text
    .globl _start
_start:
    csrr s1, nodeid
    bnez s1, quiet          # only tile 0 prints
    rdcycle a0
    call ph
    rdinstret a0
    call ph
    rdcycleh a0
    call ph
    csrr a0, ctxid
    call ph
    csrr a0, meshw
    call ph
    csrr a0, meshh
    call ph
    csrr a0, ntiles
    call ph
    csrr a0, nctx
    call ph
    li t0, 0xff
    csrw fcsr, t0           # frm = 7, fflags = 0x1f
    frrm a0
    call ph
    frflags a0
    call ph
    csrrci a0, fflags, 1    # clear NX, read the old value
    call ph
    frcsr a0
    call ph
    li a7, 0x5c05           # read_cycle service
    ecall
    call ph
    rdinstret a0
    call ph
quiet:
    csrr a0, nodeid          # every tile prints its node id
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    bnez s1, 1f
    li a0, 0                # tile 0 ends the run
    li a7, 93
    ecall
1:  endt              # the other tiles end their thread

ph: li a7, 0x5c01
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    ret
