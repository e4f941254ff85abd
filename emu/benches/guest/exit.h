/* How a benchmark guest ends: with the Linux `exit` call (SCMP and
   libriscv), or, built with -DHTIF for Spike's bare machine, by writing
   the code to `tohost` (which the simulator polls). Freestanding: no libc. */
#ifndef GUEST_EXIT_H
#define GUEST_EXIT_H

#ifdef HTIF
volatile unsigned long long tohost __attribute__((section(".tohost"), aligned(8)));
volatile unsigned long long fromhost __attribute__((section(".tohost"), aligned(8)));

static void __attribute__((noreturn)) guest_exit(unsigned code) {
    tohost = ((unsigned long long)code << 1) | 1;
    for (;;) {}
}

/* Spike starts in machine mode with the FPU off (mstatus.FS) and no
   stack: FS set to Initial, the stack at the top of its memory (see the
   bench). */
#define GUEST_ENTRY                                                           \
    __asm__(".globl _start\n_start:\n .option push\n .option norelax\n"     \
            " la gp, __global_pointer$\n .option pop\n li sp, 0x00800000\n" \
            " li t0, 0x2000\n csrs mstatus, t0\n j guest_main\n");
#else
static void __attribute__((noreturn)) guest_exit(unsigned code) {
    register long a0 __asm__("a0") = code;
    register long a7 __asm__("a7") = 93;
    __asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
    for (;;) {}
}

/* The emulator sets up the stack pointer; gcc's small-data accesses
   want the global pointer. */
#define GUEST_ENTRY                                                       \
    __asm__(".globl _start\n_start:\n .option push\n .option norelax\n" \
            " la gp, __global_pointer$\n .option pop\n j guest_main\n");
#endif

#endif
