/* The integer loop of the throughput benchmark as a guest program: the
   nine instructions of the bench's built-in compute loop (ALU, a store and
   a load, a branch), ITERATIONS times. */
#include "exit.h"

#ifndef ITERATIONS
#define ITERATIONS 22000000
#endif

GUEST_ENTRY

void __attribute__((noreturn)) guest_main(void) {
    unsigned a = 0, b = 0, c = 0, d, e, n = ITERATIONS;
    unsigned slot[2];
    __asm__ volatile("1:\n"
                     " addi %0, %0, 1\n"
                     " add %1, %1, %0\n"
                     " xor %2, %2, %1\n"
                     " slli %3, %2, 1\n"
                     " sw %3, 0(%6)\n"
                     " lw %4, 0(%6)\n"
                     " add %1, %1, %4\n"
                     " addi %5, %5, -1\n"
                     " bnez %5, 1b\n"
                     : "+r"(a), "+r"(b), "+r"(c), "=&r"(d), "=&r"(e), "+r"(n)
                     : "r"(slot)
                     : "memory");
    guest_exit(b & 0xff);
}
