# Every branch condition, taken and not taken, with signed and unsigned
# operands; jal and jalr calls; a loop. Prints one letter per outcome.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li s1, -1
    li s2, 1
    beq s1, s1, 1f
    call no
1:  call yes
    bne s1, s1, 1f
    call yes
1:  blt s1, s2, 1f          # -1 < 1 signed
    call no
1:  call yes
    bltu s1, s2, 1f         # 0xffffffff < 1 unsigned: no
    call yes
    j 2f
1:  call no
2:  bge s2, s1, 1f
    call no
1:  call yes
    bgeu s2, s1, 1f
    call yes
    j 2f
1:  call no
2:  la t0, target
    jalr ra, 0(t0)          # indirect call
    li s3, 5                # count down a loop
3:  addi s3, s3, -1
    bnez s3, 3b
    li a0, 10
    li a7, 0x5c02
    ecall
    li a0, 0
    li a7, 93
    ecall

yes: li a0, 'y'
    j out
no: li a0, 'n'
out:
    li a7, 0x5c02
    ecall
    ret
target:
    li a0, 'j'
    li a7, 0x5c02
    ecall
    ret
