/* Parallel sum, active-messages model (stressmarks/lib/am.s, the original
 * NIU). Node 0 creates a thread on every node that sums that node's share
 * of 1..N; each thread's result comes back as a callback thread on node 0,
 * which adds it up. Then the library's reduction checks it.
 *
 *   scmp cc --model am examples/c/sum_am.c -O2 -o sum_am.elf
 *   scmp run sum_am.elf --mesh 4x4 --boot all --niu original
 */
#include <scmp.h>
#include <stdio.h>

#define N 50000

static volatile int total;
static volatile int results;

/* Runs on node `node` of `nodes`, in a thread a thread message started. */
static int partial_sum(int node, int nodes) {
    long long s = 0;
    for (int i = 1 + node; i <= N; i += nodes)
        s += i;
    return (int)s;
}

/* Runs on node 0 with each partial sum (a thread of its own: the adds
 * must be atomic, several may run at once). */
static void collect(int result) {
    __atomic_fetch_add(&total, result, __ATOMIC_RELAXED);
    __atomic_fetch_add(&results, 1, __ATOMIC_RELEASE);
}

int main(void) {
    int me = scmp_node_id(), nodes = scmp_num_nodes();
    if (me == 0) {
        for (int node = 0; node < nodes; node++)
            createThread(node, (scmp_thread_fn)partial_sum, collect, node, nodes);
        while (__atomic_load_n(&results, __ATOMIC_ACQUIRE) < nodes)
            scmp_yield();
    }
    SCMPBarrier();
    int mine = partial_sum(me, nodes);
    int reduced = SCMPReduceSumInt(mine);
    if (me == 0) {
        long long expected = (long long)N * (N + 1) / 2;
        printf("sum of 1..%d on %d nodes: %d (threads), %d (reduction), expected %lld\n", N,
               nodes, total, reduced, expected);
        return total == (int)expected && reduced == total ? 0 : 1;
    }
    return 0;
}
