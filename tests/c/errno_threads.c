/* errno_threads.c: errno is per thread (tests/c_files.rs). Three threads
 * that createThread starts on this tile, and one a raw thread message
 * starts, and two that raw thread messages start (with SCMP_THREAD_TLS()),
 * each set errno, wait until all five have set theirs, then read it back; main's errno is kept too. With one
 * errno for all (tp = 0 in a thread a message starts) each would read the
 * last thread's value. */
#include <errno.h>
#include <stdio.h>

#include "scmp.h"

volatile int started, done;

static int worker(int k) {
    errno = 100 + k;
    /* Every thread has set its errno before any reads it back. */
    started++;
    while (started < 5)
        scmp_yield();
    int mine = errno;
    printf("thread %d errno %d\n", k, mine);
    done++;
    return 0;
}

static void raw_worker(int k) {
    SCMP_THREAD_TLS();
    worker(k);
    scmp_endt();
}

int main(void) {
    errno = 7;
    for (int k = 0; k < 3; k++)
        createThread(0, worker, 0, k);
    for (int k = 3; k < 5; k++) {
        scmp_sendh_thread(0, raw_worker);
        scmp_sende(k);
    }
    while (done < 5)
        scmp_yield();
    printf("main errno %d\n", errno);
    return 0;
}
