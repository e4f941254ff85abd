# ecall with a service number that is no host service.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li a7, 1234
    ecall
