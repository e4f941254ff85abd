# Values known only later: forward label differences in immediates, li of a
# later .equ (GNU as rejects both: #nognu)
    .text
    addi a1, zero, end - start           #= 00800593
    li a2, LATER                         #= 00012637 34560613
    .data
start:
    .word 0, 0                           #= 00 00 00 00 00 00 00 00
end:
    .equ LATER, 0x12345
