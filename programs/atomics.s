# Four contexts of one tile add to shared counters: with amoadd.w, and with an
# lr.w/sc.w loop that yields between the load and the store so that other
# contexts break its reservation and the sc.w must retry. Context 0 waits
# for the others (amoadd on a done counter), then prints the totals.
# run: mesh=1x1 threads=4
    .text
    .globl _start
_start:
    csrr s0, ctxid
    la s1, counters
    addi s3, s1, 4          # atomics take no offset: one register per word
    addi s4, s1, 8
    addi s5, s1, 12
    li s2, 5                # iterations
1:  li t0, 1
    amoadd.w zero, t0, (s1)
2:  lr.w t1, (s3)
    addi t1, t1, 2
    yield             # let the others touch the word
    sc.w t2, t1, (s3)
    bnez t2, 3f
    addi s2, s2, -1
    bnez s2, 1b
    j 4f
3:  amoadd.w zero, t0, (s5)   # count failed sc.w
    j 2b
4:  li t0, 1
    amoadd.w zero, t0, (s4)    # this context is done
    bnez s0, end
5:  lw t0, 8(s1)            # context 0 waits for all four
    li t1, 4
    beq t0, t1, 6f
    yield
    j 5b
6:  lw a0, 0(s1)            # 20
    call pi
    lw a0, 4(s1)            # 40
    call pi
    lw a0, 12(s1)
    snez a0, a0             # some sc.w failed: 1
    call pi
    amoswap.w a0, zero, (s1)    # old value 20, counter now 0
    call pi
    li t0, -5
    amomin.w a0, t0, (s3)   # old 40, now -5
    amomaxu.w a0, t0, (s3)  # old -5, max unsigned stays 0xfffffffb
    lw a0, 4(s1)
    call pi
    li a0, 0
    li a7, 93
    ecall
end:
    endt

pi: li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    ret

    .data
    .align 2
counters: .word 0, 0, 0, 0
