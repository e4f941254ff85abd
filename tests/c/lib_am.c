/* Every routine of the active-messages library (stressmarks/lib/am.s)
 * called from C on every node; each node counts what it finds wrong and
 * node 0 prints the values and the mesh's total of errors
 * (tests/c_programs.rs runs it on several meshes). Data messages are not
 * announced: a receiver polls the words it expects (each message's words
 * are stored in order, so the last one tells the message is in). */
#include <scmp.h>
#include <stdio.h>

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
volatile int int_box;
volatile double float_box;
volatile int block_box[9], blocknb_box[9];
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

int main(void) {
    int me = scmp_node_id(), nodes = scmp_num_nodes();
    int next = (me + 1) % nodes, prev = (me + nodes - 1) % nodes;
    for (int i = 0; i < 16; i++)
        published[i] = me * 100 + i;
    published_ptr = (char *)published;
    SCMPBarrier(); /* every node's published data is in place */

    sendDataIntValue(next, (int *)&int_box, me * 10 + 1);
    while (int_box == 0)
        scmp_yield();
    CHECK(int_box == prev * 10 + 1);

    sendDataFloatValue(next, (double *)&float_box, me + 0.25);
    while (float_box != prev + 0.25)
        scmp_yield();

    /* Blocks of 8 words (every other word of src) and a ninth word, the
     * marker, sent from a register of its own in the same message. */
    int src[18];
    for (int i = 0; i < 16; i++)
        src[i] = me * 1000 + i;
    src[16] = me + 1;
    src[17] = me + 1;
    sendDataBlock(next, (int *)block_box, 1, src + 1, 2, 9);
    sendDataBlockNB(next, (int *)blocknb_box, 1, src, 2, 9);
    while (block_box[8] != prev + 1 || blocknb_box[8] != prev + 1)
        scmp_yield();
    for (int i = 0; i < 8; i++) {
        CHECK(block_box[i] == prev * 1000 + 2 * i + 1);
        CHECK(blocknb_box[i] == prev * 1000 + 2 * i);
    }

    /* getBlock, the thesis's blocking form and with a flag of our own. */
    int got[4] = {0}, got2[4] = {0};
    volatile int flag = 0;
    getBlock(next, got, 1, &published_ptr, 4 * sizeof(int), 1, 4, 0);
    getBlock(prev, got2, 1, &published_ptr, 8 * sizeof(int), 2, 4, &flag);
    amWaitFlag(&flag);
    for (int i = 0; i < 4; i++) {
        CHECK(got[i] == next * 100 + 4 + i);
        CHECK(got2[i] == prev * 100 + 8 + 2 * i);
    }

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
        printf("am on %d nodes: sum %d min %d max %d dsum %.2f dmin %.2f dmax %.2f: %d errors\n",
               nodes, isum, imin, imax, dsum, dmin, dmax, total);
    return total;
}
