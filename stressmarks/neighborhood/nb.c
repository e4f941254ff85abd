/* nb.c: the Neighborhood stressmark (GLCM sum and difference histograms,
 * entropy and energy; docs/stressmarks-spec.md section 2, thesis 6.2.1) in
 * C, one source for both designs: active messages (`scmp cc --model am`,
 * original NIU) and send-and-receive in Rendezvous mode (`--model sr`,
 * modified NIU). docs/c-stressmarks.md compares it with the assembly
 * versions (nb_am.s, nb_am_lit.s, nb_sr.s):
 *
 *   scmp cc --model sr -O2 stressmarks/neighborhood/nb.c stressmarks/lib/dis_rng.s \
 *       -DNB_BITS=7 -DNB_DIM=64 -DNB_LINES=8 -DNB_TMIN=2 -DNB_TMAX=8 -DNB_DS=2 -DNB_DL=8 \
 *       -o nb_sr.elf
 *   scmp run nb_sr.elf --mesh 4x4 --boot all --niu modified
 *
 * Parameters (-D): NB_SEED (-1), NB_BITS (11), NB_DIM (1536), NB_LINES
 * (256), NB_TMIN, NB_TMAX (8, 64), NB_DS, NB_DL (4, 16): the model's.
 *
 * The program follows 6.2.1's text. "Rows of the image are distributed
 * evenly among the nodes" (node p owns split(dim, P, p) and draws only
 * those, walking every line of the DIS generator's stream). For each of the
 * 8 pair classes a node counts the pairs whose first pixel is in its rows
 * into its own sum and difference histograms; "if the node does not own
 * the row in which the other pixel lies, it will request the row from its
 * owner by initiating a thread on that node" (getBlock, in both designs; a
 * fetched row is kept for the later classes). Then "each node takes
 * responsibility for only a section of each of the combined histograms"
 * (node q: bins split(bins, P, q)), adds the other nodes' counts of its
 * section, computes its part of the entropy and energy sums, and "the
 * global GLCM entropy and energy values are calculated through a global
 * reduction" (SCMPReduceSumDouble; node 0 forms Es Ed).
 *
 * AM: "nodes request rows and histogram portions from other nodes by
 * creating threads on those nodes": node q starts a thread on every other
 * node (createThread, NB_AM_WINDOW = 8 in flight), which sends q its two
 * sections and a flag (as nb_am_lit.s, which asks all at once). A barrier after
 * counting lets the owners' threads send at once (as nb_am_lit.s: the
 * thesis gives no other way for a request thread to know the counting is
 * done). A node clears its histograms for the next class only after the
 * class's reduction, which no node enters before its requests are served.
 *
 * SR: "each node spawns a local thread to send the correct histogram
 * portions to every other node. Meanwhile, the main thread executes
 * receive operations for the histogram portions owned by the local node."
 * The sender thread (createThread on this node) sends node p+1, p+2, ...
 * its two sections (SCMPSendNB, two messages); the main thread takes them
 * from p-1, p-2, ... The NIU's tables hold 32 entries (the collectives
 * take up to 11), so both sides keep WINDOW rounds (2 WINDOW messages) in
 * flight; the round order makes every send meet a posted receive. The
 * main thread waits for its sender thread before clearing. (The C library
 * has no message of several parts, so SCMP_SECTIONS_IN_ONE_MESSAGE has no
 * effect here.)
 *
 * Node 0 prints `entropy` and `energy` (8 f32 each), the exact debug
 * values `pairs`, `sum_check`, `diff_check` (summed over the nodes after
 * the timed region) and `timed_cycles` (from the barrier after generation
 * until node 0 holds the last class's results). */
/* Every operation rounded separately (the spec's rule: no fused
 * multiply-add); GNU C's default would contract. */
#pragma GCC optimize("fp-contract=off")
#include <math.h>
#include <scmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NB_SEED
#define NB_SEED -1
#endif
#ifndef NB_BITS
#define NB_BITS 11
#endif
#ifndef NB_DIM
#define NB_DIM 1536
#endif
#ifndef NB_LINES
#define NB_LINES 256
#endif
#ifndef NB_TMIN
#define NB_TMIN 8
#endif
#ifndef NB_TMAX
#define NB_TMAX 64
#endif
#ifndef NB_DS
#define NB_DS 4
#endif
#ifndef NB_DL
#define NB_DL 16
#endif

#define CLASSES 8
#define MAX_PIXEL ((1 << NB_BITS) - 1)
#define BINS ((1 << (NB_BITS + 1)) - 1)
#define MAX_DY (NB_DS > NB_DL ? NB_DS : NB_DL)
#define ROW_WORDS (NB_DIM / 2) /* 16-bit pixels, dim even */
/* SR: histogram rounds in flight (2 messages a round; the tables hold 32
 * entries by default, the collectives take up to 11). */
#ifndef NB_SR_WINDOW
#define NB_SR_WINDOW 8
#endif
#define WINDOW NB_SR_WINDOW
#define MAX_NODES 64           /* AM: the request flags */
/* AM: histogram requests in flight per node. All at once (AM_WINDOW >= P)
 * exhausts the contexts of the original NIU on 64 tiles (3.4: "thread
 * messages will block at its NIU until some threads finish"): a request
 * thread that sends holds its context while its own node's queue waits
 * behind a thread message that waits for a context elsewhere; measured
 * deadlocked on 8x8 at the test size with 15-bit pixels. */
#ifndef NB_AM_WINDOW
#define NB_AM_WINDOW 8
#endif
#define AM_WINDOW NB_AM_WINDOW

#if NB_DIM % 2 != 0
#error "NB_DIM must be even"
#endif

/* stressmarks/lib/dis_rng.s: the DIS generator, bit-exact with the model. */
void ran1_init(int seed, void *state);
int rand_int(void *state, int lo, int hi);

static int node, P;
static int r0, r1, last_row;   /* own rows r0 .. r1-1; rows held r0 .. last_row-1 */
static unsigned short *image;  /* rows r0 .. last_row-1, row-major */
static char *fetched;          /* partner row r1 + i fetched */
/* The image's address, which the row request threads read. */
char *nb_image_ptr;
static unsigned *sum, *diff;   /* this node's histograms, BINS each */
static unsigned *slots;        /* the other nodes' sections: (P - 1) x 2 x section_max */
static int section_max;
static unsigned checks[2][CLASSES];
static float result[2][CLASSES]; /* node 0: entropies, energies */
static unsigned nb_cycles;
static int rng[34];

static int split(int n, int parts, int p) { return (int)((long long)p * n / parts); }
static int row_owner(int r) { return (int)(((long long)(r + 1) * P - 1) / NB_DIM); }

static void fail(const char *why) {
    if (node != 0)
        scmp_endt();
    printf("neighborhood: %s\n", why);
    exit(2);
}

static void setup(void) {
    node = scmp_node_id();
    P = scmp_num_nodes();
    if (NB_TMIN < 1 || NB_TMIN > NB_TMAX || NB_TMAX >= NB_DIM || NB_DS < 1 || NB_DL < 1 ||
        MAX_DY >= NB_DIM)
        fail("the parameters are out of the model's ranges");
    if (BINS < P)
        fail("fewer histogram bins than nodes: every node needs a section");
#ifdef SCMP_MODEL_AM
    if (P > MAX_NODES)
        fail("the active-messages version runs on at most 64 tiles (its flags)");
#endif
    r0 = split(NB_DIM, P, node);
    r1 = split(NB_DIM, P, node + 1);
    last_row = r1 + MAX_DY < NB_DIM ? r1 + MAX_DY : NB_DIM;
    section_max = BINS / P + 1;
    image = calloc((size_t)(last_row - r0) * NB_DIM + 2, sizeof *image);
    fetched = calloc(MAX_DY + 1, 1);
    sum = calloc(BINS, sizeof *sum);
    diff = calloc(BINS, sizeof *diff);
    slots = malloc((size_t)(P > 1 ? P - 1 : 1) * 2 * section_max * sizeof *slots);
    if (!image || !fetched || !sum || !diff || !slots)
        fail("the image and histograms do not fit: use more tiles or a smaller image");
    nb_image_ptr = (char *)image;
}

static void put(int r, int c, unsigned short v) {
    if (r >= r0 && r < r1)
        image[(r - r0) * NB_DIM + c] = v;
}

/* Thick Bresenham along the longer axis, the shade stepped in f32. */
static void draw(int from_r, int from_c, int to_r, int to_c, int t, int v0, int v1) {
    int dr = to_r - from_r, dc = to_c - from_c;
    int along_columns = abs(dc) > abs(dr);
    int main0 = along_columns ? from_c : from_r, cross = along_columns ? from_r : from_c;
    int d_main = along_columns ? dc : dr, d_cross = along_columns ? dr : dc;
    int s_main = d_main < 0 ? -1 : 1, s_cross = d_cross < 0 ? -1 : 1;
    int lng = abs(d_main), shrt = abs(d_cross), half = t / 2;
    float inc = ((float)v1 - (float)v0) / (float)lng;
    float val = (float)v0;
    int e = 2 * shrt - lng;
    for (int step = 0; step <= lng; step++) {
        int m = main0 + step * s_main;
        unsigned short shade = val > 0.0f ? (unsigned short)val : 0;
        int lo = cross - half < 0 ? 0 : cross - half;
        int hi = cross + t - half < NB_DIM ? cross + t - half : NB_DIM;
        for (int o = lo; o < hi; o++) {
            if (along_columns)
                put(o, m, shade);
            else
                put(m, o, shade);
        }
        val += inc;
        if (e >= 0) {
            cross += s_cross;
            e -= 2 * lng;
        }
        e += 2 * shrt;
    }
}

static void generate(void) {
    int last_cell = NB_DIM * NB_DIM - 1;
    ran1_init(NB_SEED, rng);
    for (int l = 0; l < NB_LINES; l++) {
        int start = rand_int(rng, 0, last_cell);
        int end = rand_int(rng, 0, last_cell);
        while (end == start)
            end = rand_int(rng, 0, last_cell);
        int t = rand_int(rng, NB_TMIN, NB_TMAX);
        int v0 = rand_int(rng, 0, MAX_PIXEL);
        int v1 = rand_int(rng, 0, MAX_PIXEL);
        draw(start / NB_DIM, start % NB_DIM, end / NB_DIM, end % NB_DIM, t, v0, v1);
    }
}

static const unsigned short *row(int r) { return image + (size_t)(r - r0) * NB_DIM; }

#ifdef SCMP_MODEL_AM
/* A partner row from its owner: a thread there sends it (getBlock, the
 * thesis's blocking form). */
static void fetch_row(int r) {
    int o = row_owner(r);
    getBlock(o, (void *)row(r), 1, &nb_image_ptr, (r - split(NB_DIM, P, o)) * NB_DIM * 2, 1,
             ROW_WORDS, 0);
}
#endif
#ifdef SCMP_MODEL_SR
enum { KIND_ROW = 1, KIND_SUM, KIND_DIFF };

static void fetch_row(int r) {
    int o = row_owner(r), id = SCMP_ID(KIND_ROW, r, node);
    getBlock(o, (int *)row(r), 1, &nb_image_ptr, (r - split(NB_DIM, P, o)) * NB_DIM * 2, 1, id,
             ROW_WORDS);
    SCMPWaitReceive(id);
    SCMPClearReceive(id);
}
#endif

/* Counts the class's pairs whose first pixel is in this node's rows. */
static void count(int dx, int dy) {
    int c0 = dx >= 0 ? 0 : -dx, c1 = dx >= 0 ? NB_DIM - dx : NB_DIM;
    int end = r1 < NB_DIM - dy ? r1 : NB_DIM - dy;
    for (int r = r0; r < end; r++) {
        int pr = r + dy;
        if (pr >= r1 && !fetched[pr - r1]) {
            fetch_row(pr);
            fetched[pr - r1] = 1;
        }
        const unsigned short *g = row(r), *h = row(pr) + dx;
        for (int c = c0; c < c1; c++) {
            unsigned a = g[c], b = h[c];
            sum[a + b]++;
            diff[a + MAX_PIXEL - b]++;
        }
    }
}

/* The section of node q: bins lo .. hi-1. */
static void section(int q, int *lo, int *hi) {
    *lo = split(BINS, P, q);
    *hi = split(BINS, P, q + 1);
}

static unsigned *slot(int j, int which) { return slots + ((size_t)(j - 1) * 2 + which) * section_max; }

/* Adds round j's counts (from node node - j) into this node's section. */
static void add_round(int j) {
    int lo, hi;
    section(node, &lo, &hi);
    const unsigned *s = slot(j, 0), *d = slot(j, 1);
    for (int i = lo; i < hi; i++) {
        sum[i] += s[i - lo];
        diff[i] += d[i - lo];
    }
}

#ifdef SCMP_MODEL_AM
static volatile int flags[MAX_NODES];

/* The thread a histogram request starts on this node (createThread): our
 * counts of node q's section, sum then difference, into its slot, then its
 * flag; then it ends (1.2.3: "send the data to the requesting node and
 * terminate"). */
static int serve(int q, int dst, int flag) {
    int lo, hi;
    section(q, &lo, &hi);
    sendDataBlock(q, (int *)dst, 1, (int *)sum + lo, 1, hi - lo);
    sendDataBlock(q, (int *)dst + section_max, 1, (int *)diff + lo, 1, hi - lo);
    sendDataIntValue(q, (int *)flag, 1);
    return 0;
}

/* Requests node q + j's answer (slot and flag P - j). */
static void request(int j) {
    createThread((node + j) % P, (scmp_thread_fn)serve, 0, node, (int)slot(P - j, 0),
                 (int)&flags[P - j]);
}

/* The other nodes' counts of this node's section: a request thread on each
 * (q + 1, q + 2, ...), AM_WINDOW in flight; the answers added from q - 1,
 * q - 2, ... (round j's answer frees the request of round P - j). */
static void combine(int class) {
    (void)class;
    SCMPBarrier(); /* every node has counted: the request threads send at once */
    for (int j = 1; j < P; j++)
        flags[j] = 0;
    for (int j = 1; j < P && j <= AM_WINDOW; j++)
        request(j);
    int next = AM_WINDOW + 1;
    for (int j = P - 1; j >= 1; j--) { /* answers in the order requested */
        amWaitFlag(&flags[j]);
        add_round(j);
        if (next < P)
            request(next++);
    }
}
#define VERSION "active messages, C"
#endif

#ifdef SCMP_MODEL_SR
static volatile int sender_done;

static int id_of(int kind, int class, int from, int to) {
    return SCMP_ID(kind, class << 12 | from, to);
}

/* The local sender thread: this node's counts of node p + j's section to
 * it, round j = 1 .. P-1, WINDOW rounds in flight. */
static int sender(int class) {
    for (int j = 1; j < P; j++) {
        if (j > WINDOW) {
            int old = (node + j - WINDOW) % P;
            for (int kind = KIND_SUM; kind <= KIND_DIFF; kind++) {
                SCMPWaitSend(id_of(kind, class, node, old));
                SCMPClearSend(id_of(kind, class, node, old));
            }
        }
        int to = (node + j) % P, lo, hi;
        section(to, &lo, &hi);
        SCMPSendNB(to, id_of(KIND_SUM, class, node, to), (int *)sum + lo, 1, hi - lo);
        SCMPSendNB(to, id_of(KIND_DIFF, class, node, to), (int *)diff + lo, 1, hi - lo);
    }
    for (int j = P - WINDOW > 1 ? P - WINDOW : 1; j < P; j++) {
        int old = (node + j) % P;
        for (int kind = KIND_SUM; kind <= KIND_DIFF; kind++) {
            SCMPWaitSend(id_of(kind, class, node, old));
            SCMPClearSend(id_of(kind, class, node, old));
        }
    }
    sender_done = class + 1;
    return 0;
}

static void post(int class, int j) {
    int from = (node - j + P) % P;
    SCMPReceiveNB(id_of(KIND_SUM, class, from, node), slot(j, 0), 1);
    SCMPReceiveNB(id_of(KIND_DIFF, class, from, node), slot(j, 1), 1);
}

static void combine(int class) {
    createThread(node, (scmp_thread_fn)sender, 0, class);
    for (int j = 1; j < P && j <= WINDOW; j++)
        post(class, j);
    for (int j = 1; j < P; j++) {
        int from = (node - j + P) % P;
        for (int kind = KIND_SUM; kind <= KIND_DIFF; kind++) {
            SCMPWaitReceive(id_of(kind, class, from, node));
            SCMPClearReceive(id_of(kind, class, from, node));
        }
        if (j + WINDOW < P)
            post(class, j + WINDOW);
        add_round(j);
    }
    while (sender_done != class + 1) /* the sender still reads the histograms */
        scmp_yield();
}
#define VERSION "send-and-receive, C"
#endif

/* The class's entropy and energy over this node's section, reduced; node 0
 * keeps them. The checks' parts are kept for after the timed region. */
static void texture(int class, long long pairs) {
    int lo, hi;
    section(node, &lo, &hi);
    double scale = 1.0 / (double)pairs, h = 0.0, es = 0.0, ed = 0.0;
    unsigned sc = 0, dc = 0;
    for (int i = lo; i < hi; i++) {
        if (sum[i] > 0) {
            double s = (double)sum[i] * scale;
            h -= s * log(s);
            es += s * s;
        }
        if (diff[i] > 0) {
            double s = (double)diff[i] * scale;
            h -= s * log(s);
            ed += s * s;
        }
        sc += (unsigned)(i + 1) * sum[i];
        dc += (unsigned)(i + 1) * diff[i];
    }
    checks[0][class] = sc;
    checks[1][class] = dc;
    h = SCMPReduceSumDouble(h);
    es = SCMPReduceSumDouble(es);
    ed = SCMPReduceSumDouble(ed);
    result[0][class] = (float)h;
    result[1][class] = (float)(es * ed);
}

static unsigned f32_bits(float v) {
    unsigned b;
    memcpy(&b, &v, sizeof b);
    return b;
}

int main(void) {
    static const int dx[CLASSES] = {NB_DS, NB_DS, 0, -NB_DS, NB_DL, NB_DL, 0, -NB_DL};
    static const int dy[CLASSES] = {0, NB_DS, NB_DS, NB_DS, 0, NB_DL, NB_DL, NB_DL};
    setup();
    generate();
    SCMPBarrier();
    unsigned start = (unsigned)scmp_cycles(); /* the timed region */
    for (int class = 0; class < CLASSES; class++) {
        if (class > 0) { /* the previous class's counts are reduced */
            memset(sum, 0, BINS * sizeof *sum);
            memset(diff, 0, BINS * sizeof *diff);
        }
        count(dx[class], dy[class]);
        combine(class);
        texture(class, (long long)(NB_DIM - dy[class]) * (NB_DIM - abs(dx[class])));
    }
    nb_cycles = (unsigned)scmp_cycles() - start;
    unsigned total[2][CLASSES];
    for (int k = 0; k < 2; k++)
        for (int class = 0; class < CLASSES; class++)
            total[k][class] = (unsigned)SCMPReduceSumInt((int)checks[k][class]);
    if (node != 0)
        return 0;
    printf("neighborhood (" VERSION ") on %dx%d: %d-bit pixels, %dx%d image\n",
           scmp_mesh_width(), scmp_mesh_height(), NB_BITS, NB_DIM, NB_DIM);
    const char *names[2] = {"entropy", "energy"};
    for (int k = 0; k < 2; k++) {
        printf("%s", names[k]);
        for (int class = 0; class < CLASSES; class++)
            printf(" 0x%08x", f32_bits(result[k][class]));
        printf("\n");
    }
    printf("pairs");
    for (int class = 0; class < CLASSES; class++)
        printf(" %u", (unsigned)((NB_DIM - dy[class]) * (NB_DIM - abs(dx[class]))));
    printf("\nsum_check");
    for (int class = 0; class < CLASSES; class++)
        printf(" %u", total[0][class]);
    printf("\ndiff_check");
    for (int class = 0; class < CLASSES; class++)
        printf(" %u", total[1][class]);
    printf("\ntimed_cycles %u\n", nb_cycles);
    return 0;
}
