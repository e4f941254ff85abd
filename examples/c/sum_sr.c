/* Parallel sum, send-and-receive model (stressmarks/lib/sr.s, the modified
 * NIU). Every node sums its share of 1..N; node 0 receives the other
 * nodes' partial sums as messages and checks the total against the
 * library's reduction and against N(N+1)/2.
 *
 *   scmp cc examples/c/sum_sr.c -O2 -o sum_sr.elf
 *   scmp run sum_sr.elf --mesh 4x4 --boot all --niu modified
 */
#include <scmp.h>
#include <stdio.h>

#define N 50000
#define KIND_PARTIAL 1

int main(void) {
    int me = scmp_node_id(), nodes = scmp_num_nodes();
    long long partial = 0;
    for (int i = 1 + me; i <= N; i += nodes)
        partial += i;

    int total;
    if (me == 0) {
        static int received[64 * 64];
        /* Post every receive, then wait for each. */
        for (int from = 1; from < nodes; from++)
            SCMPReceiveNB(SCMP_ID(KIND_PARTIAL, 0, from), &received[from], 1);
        total = (int)partial;
        for (int from = 1; from < nodes; from++) {
            int id = SCMP_ID(KIND_PARTIAL, 0, from);
            SCMPWaitReceive(id);
            SCMPClearReceive(id);
            total += received[from];
        }
    } else {
        int id = SCMP_ID(KIND_PARTIAL, 0, me);
        SCMPSendInt(0, id, (int)partial);
        SCMPWaitSend(id);
        SCMPClearSend(id);
    }
    /* The same sum through the library's all-reduce (every node gets it). */
    int reduced = SCMPReduceSumInt((int)partial);
    if (me == 0) {
        long long expected = (long long)N * (N + 1) / 2;
        printf("sum of 1..%d on %d nodes: %d (messages), %d (reduction), expected %lld\n", N,
               nodes, total, reduced, expected);
        return total == (int)expected && reduced == total ? 0 : 1;
    }
    return 0;
}
