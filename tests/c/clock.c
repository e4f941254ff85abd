/* clock(), time() and gettimeofday() from the simulated clock
 * (tile.clock_hz; tests/c_clock.rs). Prints the three before and after a
 * loop of a few million cycles. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

volatile unsigned sink;

int main(void) {
    struct timeval tv0, tv1;
    clock_t c0 = clock();
    time_t t0 = time(NULL);
    gettimeofday(&tv0, NULL);
    for (unsigned i = 0; i < 1000000; i++)
        sink += i;
    clock_t c1 = clock();
    gettimeofday(&tv1, NULL);
    long us = (long)(tv1.tv_sec - tv0.tv_sec) * 1000000L + (long)(tv1.tv_usec - tv0.tv_usec);
    printf("per_sec %ld clock %ld %ld time %ld tod_us %ld\n", (long)CLOCKS_PER_SEC, (long)c0,
           (long)c1, (long)t0, us);
    return 0;
}
