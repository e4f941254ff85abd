/* scmp_start.c: how a C program's `main` ends on SCMP (linked by `scmp cc`
 * with `-Wl,--wrap=main`: picolibc's crt0 calls __wrap_main, which calls the
 * program's main).
 *
 * Every tile runs main (SPMD). main returning ends that thread only, as
 * `endt` does: the run ends when every thread on every tile has ended (exit
 * status 0), so tiles that return early do not cut off the others. On tile
 * 0 a non-zero return value ends the run at once with that status (as
 * exit(n)), so a failure is never hidden. exit(n) anywhere ends the run at
 * once with status n. */
#include <stdio.h>

#include "scmp.h"

int __real_main(int argc, char **argv);

int __wrap_main(int argc, char **argv) {
    int status = __real_main(argc, argv);
    fflush(stdout);
    if (status != 0 && scmp_node_id() == 0)
        return status; /* crt0 calls exit(status) */
    scmp_endt();
}

/* gettimeofday from the simulated clock. picolibc's semihosting version
 * computes the microseconds as (ticks % freq) * 1000000 / freq in 32 bits,
 * which overflows once ticks % freq passes 4294 at the 1 MHz tick rate the
 * emulator reports (as QEMU): this one divides the elapsed microseconds
 * (SYS_ELAPSED: cycles at tile.clock_hz, counted from cycle 0, which is
 * the Unix epoch, as time() says) in 64 bits. */
#include <semihost.h>
#include <sys/time.h>

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    (void)tz;
    if (tv) {
        uint64_t us = sys_semihost_elapsed();
        tv->tv_sec = (time_t)(us / 1000000u);
        tv->tv_usec = (suseconds_t)(us % 1000000u);
    }
    return 0;
}
