# Sieve of Eratosthenes below 60 using only Linux services (write, exit), so
# it runs unchanged on qemu-riscv32: prints the primes in decimal, one line,
# and exits with the number of primes found (17).
# run: mesh=1x1
# qemu: same output
    .text
    .globl _start
_start:
    la s1, sieve
    li s2, 60
    li t0, 2
1:  mul t1, t0, t0          # cross out multiples from t0*t0
    bge t1, s2, 3f
2:  add t2, s1, t1
    li t3, 1
    sb t3, 0(t2)
    add t1, t1, t0
    blt t1, s2, 2b
3:  addi t0, t0, 1
    blt t0, s2, 1b
    li s3, 0                # primes found
    li s4, 2
4:  add t2, s1, s4
    lbu t3, 0(t2)
    bnez t3, 5f
    addi s3, s3, 1
    mv a0, s4
    call print_number
5:  addi s4, s4, 1
    blt s4, s2, 4b
    li a0, 1
    la a1, newline
    li a2, 1
    li a7, 64
    ecall
    mv a0, s3
    li a7, 93
    ecall

# Writes a0 in decimal followed by a space.
print_number:
    la t4, digits_end
    li t5, ' '
    sb t5, 0(t4)
    mv a2, t4
    li t6, 10
1:  remu t5, a0, t6
    divu a0, a0, t6
    addi t5, t5, '0'
    addi t4, t4, -1
    sb t5, 0(t4)
    bnez a0, 1b
    sub a2, a2, t4
    addi a2, a2, 1
    mv a1, t4
    li a0, 1
    li a7, 64
    ecall
    ret

    .data
newline: .ascii "\n"
digits: .space 12
digits_end: .space 1
sieve: .space 60
