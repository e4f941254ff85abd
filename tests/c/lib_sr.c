/* Every routine of the send-and-receive library (stressmarks/lib/sr.s)
 * called from C on every node; each node counts what it finds wrong and
 * node 0 prints the values and the mesh's total of errors
 * (tests/c_programs.rs runs it on several meshes). */
#include <scmp.h>
#include <stdio.h>

#define K_INT 1
#define K_FLOAT 2
#define K_BLOCK 3
#define K_BLOCKNB 4
#define K_READY 5
#define K_GET 6

static int errors;
#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            errors++;                                                                       \
            printf("node %d: line %d: %s\n", scmp_node_id(), __LINE__, #cond);              \
        }                                                                                   \
    } while (0)

int published[16];
char *published_ptr;
static volatile int callbacks, callback_sum, par_runs;

static int square(int x) { return x * x; }
static void add_result(int r) {
    __atomic_fetch_add(&callback_sum, r, __ATOMIC_RELAXED);
    __atomic_fetch_add(&callbacks, 1, __ATOMIC_RELEASE);
}
static int count_run(int a, int b) {
    if (a == 7 && b == 9)
        __atomic_fetch_add(&par_runs, 1, __ATOMIC_RELAXED);
    return 0;
}

/* Sends to `next`, receives from `prev` (posted first), then clears both. */
static void ring_int(int me, int next, int prev) {
    int in, id_in = SCMP_ID(K_INT, 0, prev), id_out = SCMP_ID(K_INT, 0, me);
    SCMPReceiveNB(id_in, &in, 1);
    SCMPSendInt(next, id_out, me * 10 + 1);
    SCMPWaitReceive(id_in);
    CHECK(SCMPPollReceive(id_in) == SCMP_RECEIVE_COMPLETE);
    CHECK(in == prev * 10 + 1);
    SCMPWaitSend(id_out);
    CHECK(SCMPPollSend(id_out) == SCMP_SEND_COMPLETE);
    SCMPClearSend(id_out);
    SCMPClearReceive(id_in);
    CHECK(SCMPPollReceive(id_in) == SCMP_RECEIVE_EMPTY);
    CHECK(SCMPPollSend(id_out) == SCMP_SEND_EMPTY);
}

int main(void) {
    int me = scmp_node_id(), nodes = scmp_num_nodes();
    int next = (me + 1) % nodes, prev = (me + nodes - 1) % nodes;
    for (int i = 0; i < 16; i++)
        published[i] = me * 100 + i;
    published_ptr = (char *)published;

    ring_int(me, next, prev);

    /* SCMPSendFloat: a double, two words. */
    double d = 0;
    int fin = SCMP_ID(K_FLOAT, 0, prev), fout = SCMP_ID(K_FLOAT, 0, me);
    SCMPReceiveNB(fin, &d, 1);
    SCMPSendFloat(next, fout, me + 0.25);
    SCMPWaitReceive(fin);
    CHECK(d == prev + 0.25);
    SCMPWaitSend(fout);
    SCMPClearSend(fout);
    SCMPClearReceive(fin);

    /* SCMPSend (blocking) and SCMPSendNB: 8 words, every other one, into a
     * buffer with stride 1; SCMPReceive (blocking) on the other side. */
    int src[16], dst[8] = {0}, dst2[8] = {0};
    for (int i = 0; i < 16; i++)
        src[i] = me * 1000 + i;
    int bin = SCMP_ID(K_BLOCK, 0, prev), bout = SCMP_ID(K_BLOCK, 0, me);
    int nin = SCMP_ID(K_BLOCKNB, 0, prev), nout = SCMP_ID(K_BLOCKNB, 0, me);
    SCMPReceiveNB(nin, dst2, 1);
    SCMPSendNB(next, nout, src, 2, 8);
    if (me % 2 == 0) {
        SCMPSend(next, bout, src + 1, 2, 8);
        SCMPReceive(bin, dst, 1);
    } else {
        SCMPReceive(bin, dst, 1);
        SCMPSend(next, bout, src + 1, 2, 8);
    }
    SCMPWaitReceive(nin);
    SCMPWaitSend(nout);
    for (int i = 0; i < 8; i++) {
        CHECK(dst[i] == prev * 1000 + 2 * i + 1);
        CHECK(dst2[i] == prev * 1000 + 2 * i);
    }
    SCMPClearSend(bout);
    SCMPClearSend(nout);
    SCMPClearReceive(bin);
    SCMPClearReceive(nin);

    /* Ready mode: the receive is posted before the barrier, sent after. */
    int rin_v = 0, rin = SCMP_ID(K_READY, 0, prev), rout = SCMP_ID(K_READY, 0, me);
    SCMPReceiveNB(rin, &rin_v, 1);
    SCMPBarrier();
    SCMPSetMode(SCMP_MODE_READY);
    SCMPSendInt(next, rout, me + 5);
    SCMPWaitReceive(rin);
    CHECK(rin_v == prev + 5);
    SCMPWaitSend(rout);
    SCMPClearSend(rout);
    SCMPClearReceive(rin);
    SCMPSetMode(SCMP_MODE_RENDEZVOUS);

    /* getBlock: words 4..7 of next's published array, through the pointer. */
    int got[4] = {0};
    int gid = SCMP_ID(K_GET, 0, me);
    getBlock(next, got, 1, &published_ptr, 4 * sizeof(int), 1, gid, 4);
    SCMPWaitReceive(gid);
    SCMPClearReceive(gid);
    for (int i = 0; i < 4; i++)
        CHECK(got[i] == next * 100 + 4 + i);

    /* createThread with a callback, parExecute. */
    if (me == 0) {
        for (int n = 0; n < nodes; n++)
            createThread(n, (scmp_thread_fn)square, add_result, n + 1);
        while (__atomic_load_n(&callbacks, __ATOMIC_ACQUIRE) < nodes)
            scmp_yield();
        int want = 0;
        for (int n = 1; n <= nodes; n++)
            want += n * n;
        CHECK(callback_sum == want);
        parExecute(nodes, (scmp_thread_fn)count_run, 7, 9);
    }
    while (par_runs < 1)
        scmp_yield();
    SCMPBarrier();

    /* The reductions. */
    int isum = SCMPReduceSumInt(me + 1), imin = SCMPReduceMinInt(50 - me),
        imax = SCMPReduceMaxInt(me * 3);
    double dsum = SCMPReduceSumDouble(0.5 * me), dmin = SCMPReduceMinDouble(me - 1.5),
           dmax = SCMPReduceMaxDouble(me * 1.25);
    CHECK(isum == nodes * (nodes + 1) / 2);
    CHECK(imin == 50 - (nodes - 1));
    CHECK(imax == 3 * (nodes - 1));
    CHECK(dsum == 0.25 * nodes * (nodes - 1));
    CHECK(dmin == -1.5);
    CHECK(dmax == 1.25 * (nodes - 1));

    int total = SCMPReduceSumInt(errors);
    if (me == 0)
        printf("sr on %d nodes: sum %d min %d max %d dsum %.2f dmin %.2f dmax %.2f: %d errors\n",
               nodes, isum, imin, imax, dsum, dmin, dmax, total);
    return total;
}
