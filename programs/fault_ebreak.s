# ebreak with no debugger attached stops the run with a report.
# run: mesh=1x1
    .text
    .globl _start
_start:
    li a0, 5
    ebreak
    li a7, 93
    ecall
