# What one scalar message costs in the send-and-receive design (modified
# NIU) over one hop (tile 0 to tile 1), in three rounds: Ready and
# Rendezvous with the receive posted before the sender starts, then
# Rendezvous posted late (after the RTS has arrived). Tile 0 prints the
# sender's instructions/cycles for sendh + sende (issue) and for waits +
# rms (completion); tile 1 prints the receiver's for str (posting), the
# one-way latency and rmr + lw (finishing). The latency runs from the
# cycle tile 0 read just before its sendh (carried as the message's word;
# when posted late, from the cycle before the str) to tile 1 running again
# after its waitr.
# Instructions come from instret, cycles from the cycle CSR (every tile's
# clock is the mesh's); what the reading itself costs is subtracted.
# run: mesh=2x1 boot=all
    .include "measure.inc"
    .text
    .globl _start
_start:
    calibrate               # what counting costs: s10, s11
    csrr s0, nodeid
    li s1, 1                # message id
    la s4, slot
    li s5, 1                # stride
    li s6, 0                # round 0: Ready, 1: Rendezvous, 2: late
    bnez s0, receiver
sender:
    la t0, go               # wait for tile 1's go
1:  lw t1, 0(t0)
    bnez t1, 2f
    yield
    j 1b
2:  sw zero, 0(t0)
    li a0, 1
    bnez s6, 3f
    csrr a1, cycle          # the latency's start, sent as the word
    mark t2, t3
    sendh a0, ready, s1
    sende a1
    since t2, t3, s2, s3
    j 4f
3:  csrr a1, cycle
    mark t2, t3
    sendh a0, rdv, s1
    sende a1
    since t2, t3, s2, s3
4:
    mark t2, t3
    waits s1
    rms s1
    since t2, t3, s8, s9
    la a0, send_text
    call mode
    mv a0, s2
    mv a1, s3
    call pair
    mv a0, s8
    mv a1, s9
    call pair
    call newline
    addi s6, s6, 1
    li t0, 3
    blt s6, t0, sender
    endt
receiver:
    li t0, 2
    beq s6, t0, 1f          # post first
    mark t2, t3
    str s1, s4, s5
    since t2, t3, s2, s3
1:  li a0, 0                # tell tile 0 to go
    la t0, go_handler
    sendh a0, thread, t0
    sende zero
    li t0, 2
    bne s6, t0, 3f
    li t0, 200              # late: post once the RTS is in
2:  addi t0, t0, -1
    bnez t0, 2b
    mark t2, t3
    str s1, s4, s5
    since t2, t3, s2, s3
    mv gp, t3               # the latency's start
3:  waitr s1
    csrr s7, cycle          # running again
    mark t2, t3
    rmr s1
    lw t4, 0(s4)
    since t2, t3, s8, s9
    li t0, 2
    beq s6, t0, 4f
    mv gp, t4               # posted first: from the sender's stamp
4:  sub gp, s7, gp
    la a0, receive_text
    call mode
    mv a0, s2
    mv a1, s3
    call pair
    mv a0, gp
    call number
    mv a0, s8
    mv a1, s9
    call pair
    call newline
    addi s6, s6, 1
    li t0, 3
    blt s6, t0, receiver
    endt
mode:                       # prints the mode, then the string at a0
    mv t6, a0
    la a0, ready_text
    beqz s6, 1f
    la a0, rdv_text
    li a7, 1
    beq s6, a7, 1f
    la a0, late_text
1:  li a7, 0x5c03           # print_string
    ecall
    mv a0, t6
    ecall
    ret
pair:                       # prints " a0/a1"
    mv t5, a1
    mv t6, ra
    call number
    mv ra, t6
    li a0, '/'
    li a7, 0x5c02           # print_char
    ecall
    mv a0, t5
    li a7, 0x5c00           # print_int
    ecall
    ret
number:                     # prints " a0"
    mv t4, a0
    li a0, ' '
    li a7, 0x5c02
    ecall
    mv a0, t4
    li a7, 0x5c00
    ecall
    ret
newline:
    li a0, 10
    li a7, 0x5c02
    ecall
    ret
go_handler:
    la t0, go
    li t1, 1
    sw t1, 0(t0)
    endt
    .data
go: .word 0
slot: .word 0
ready_text: .asciz "ready"
rdv_text: .asciz "rendezvous"
late_text: .asciz "rendezvous, posted late,"
send_text: .asciz " sender issue, completion:"
receive_text: .asciz " receiver post, latency, finish:"
