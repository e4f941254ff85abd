/* tc.c: the Transitive Closure stressmark (Floyd-Warshall over a random
 * directed graph; docs/stressmarks-spec.md) in C, one source for both
 * designs: active messages (`scmp cc --model am`, original NIU) and
 * send-and-receive in Rendezvous mode (`--model sr`, modified NIU). It does
 * what tc_am.s and tc_sr.s do, message for message, so that the two can be
 * compared (docs/c-stressmarks.md):
 *
 *   scmp cc --model sr -O2 stressmarks/transitive/tc.c stressmarks/lib/dis_rng.s \
 *       -DTC_N=40 -DTC_M=100 -o tc_sr.elf
 *   scmp run tc_sr.elf --mesh 4x4 --boot all --niu modified
 *
 * Parameters (-D): TC_SEED (-1), TC_N vertices (500), TC_M edges drawn
 * (2500), TC_WMAX largest weight (255). Every tile draws the whole input
 * with the DIS generator (stressmarks/lib/dis_rng.s, linked beside) and
 * keeps its block: tile (x, y) of a W x H mesh owns rows split(n, H, y) and
 * columns split(n, W, x). At step k it needs row k over its columns, owned
 * by (x, y_k), and column k over its rows, owned by (x_k, y). AM: it asks
 * for both with getBlock, waits for the flags, relaxes, and a barrier ends
 * the step. SR: the owners send them to their grid column and row peers
 * (SCMPSendNB), whose receives were posted a step earlier into buffers that
 * alternate with k's parity. Then the row sums are gathered along grid rows
 * into column 0 and the column sums along grid columns into row 0, and from
 * there to node 0, which prints them (`row_sums`, `col_sums`, and
 * `timed_cycles`: from the barrier after generation until node 0 holds
 * them), the form `scmp sweep` and the stressmarks crate's checker read. */
#include <scmp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef TC_SEED
#define TC_SEED -1
#endif
#ifndef TC_N
#define TC_N 500
#endif
#ifndef TC_M
#define TC_M 2500
#endif
#ifndef TC_WMAX
#define TC_WMAX 255
#endif

#define NO_PATH 0x7fffffffu
#define MAX_SIDE 32 /* the gather's flags and slots: W, H <= 32 */

/* stressmarks/lib/dis_rng.s: the DIS generator, bit-exact with the model. */
void ran1_init(int seed, void *state);
int rand_int(void *state, int lo, int hi);

static int node, W, H, X, Y;
static int r0, lr, c0, lc; /* rows r0 .. r0+lr-1, columns c0 .. c0+lc-1 */
static int rmax, cmax;     /* the most rows (columns) a node has */
static unsigned *block;    /* lr x lc, row by row */
/* AM: the block's address, which getBlock's thread on the owner reads. */
char *tc_block_ptr;
static unsigned *rowbuf, *colbuf; /* two of each: k's parity */
/* Row sums (n), then column sums (n); node 0 ends with all of them. */
static unsigned result[2 * TC_N];
/* The gather's slots, at the same address on every node (static). */
static unsigned gather_rows[(MAX_SIDE - 1) * TC_N];
static unsigned gather_cols[(MAX_SIDE - 1) * TC_N];
static unsigned tc_cycles;
static int rng[34];

static int split(int n, int parts, int p) { return (int)((unsigned)p * n / parts); }
static int owner_row(int k) { return ((k + 1) * H - 1) / TC_N; } /* y_k */
static int owner_col(int k) { return ((k + 1) * W - 1) / TC_N; } /* x_k */

static void fail(const char *why) {
    if (node != 0)
        scmp_endt();
    printf("transitive closure: %s\n", why);
    exit(2);
}

static void setup(void) {
    node = scmp_node_id();
    W = scmp_mesh_width();
    H = scmp_mesh_height();
    X = node % W;
    Y = node / W;
    if (TC_N < W || TC_N < H)
        fail("n (TC_N) is smaller than the mesh's width or height: every tile needs a row and a column");
    if (TC_N > 65535)
        fail("n (TC_N) is more than 65535 (the step field of the message ids)");
    if (W > MAX_SIDE || H > MAX_SIDE)
        fail("the mesh's width and height must be at most 32");
#ifdef SCMP_MODEL_SR
    if (W + H > 18)
        fail("the send-and-receive version needs width + height <= 18 (its gather posts 2 (W + H - 2) receives on node 0, the receive table holds 32)");
#endif
    r0 = split(TC_N, H, Y);
    lr = split(TC_N, H, Y + 1) - r0;
    c0 = split(TC_N, W, X);
    lc = split(TC_N, W, X + 1) - c0;
    rmax = (TC_N + H - 1) / H;
    cmax = (TC_N + W - 1) / W;
    rowbuf = malloc(2 * cmax * sizeof *rowbuf);
    colbuf = malloc(2 * rmax * sizeof *colbuf);
    block = malloc((size_t)lr * lc * sizeof *block);
    if (!rowbuf || !colbuf || !block)
        fail("the block and buffers do not fit: use more tiles or a smaller n");
    tc_block_ptr = (char *)block;
}

/* The node's block of D from the whole random stream: D[b][a] = w. */
static void generate(void) {
    for (int i = 0; i < lr * lc; i++)
        block[i] = NO_PATH;
    ran1_init(TC_SEED, rng);
    for (int e = 0; e < TC_M; e++) {
        int a = rand_int(rng, 0, TC_N - 1);
        int b = rand_int(rng, 0, TC_N - 1);
        int w = rand_int(rng, 0, TC_WMAX);
        unsigned i = b - r0, j = a - c0;
        if (i < (unsigned)lr && j < (unsigned)lc)
            block[i * lc + j] = w;
    }
}

/* D[i][j] = min(D[i][j], D[i][k] + D[k][j]) over the block; `row` is row k
 * over its columns, `col` column k over its rows, `stride` words apart. */
static void relax(const unsigned *row, const unsigned *col, int stride) {
    for (int i = 0; i < lr; i++) {
        unsigned dik = col[i * stride];
        unsigned *d = block + i * lc;
        for (int j = 0; j < lc; j++) {
            unsigned v = dik + row[j];
            if (v < d[j])
                d[j] = v;
        }
    }
}

/* The block's sums of entries other than NO_PATH: rows into
 * result[r0 ..], columns into result[n + c0 ..]. */
static void partials(void) {
    unsigned *rows = result + r0, *cols = result + TC_N + c0;
    for (int j = 0; j < lc; j++)
        cols[j] = 0;
    for (int i = 0; i < lr; i++) {
        unsigned s = 0;
        for (int j = 0; j < lc; j++) {
            unsigned v = block[i * lc + j];
            if (v != NO_PATH) {
                s += v;
                cols[j] += v;
            }
        }
        rows[i] = s;
    }
}

static void add_words(unsigned *dst, const unsigned *src, int n) {
    for (int i = 0; i < n; i++)
        dst[i] += src[i];
}

#ifdef SCMP_MODEL_AM
static volatile int flag_row, flag_col;
static volatile int flags_row[MAX_SIDE], flags_col[MAX_SIDE];
static volatile int flags_final_row[MAX_SIDE], flags_final_col[MAX_SIDE];

static void steps(void) {
    for (int k = 0; k < TC_N; k++) {
        int yk = owner_row(k), xk = owner_col(k);
        const unsigned *row, *col;
        int stride = 1;
        if (yk == Y) {
            row = block + (k - r0) * lc;
        } else { /* from (x, y_k): its row k - r0' */
            int offset = (k - split(TC_N, H, yk)) * lc * 4;
            getBlock(yk * W + X, rowbuf, 1, &tc_block_ptr, offset, 1, lc, &flag_row);
            row = rowbuf;
        }
        if (xk == X) {
            col = block + (k - c0);
            stride = lc;
        } else { /* from (x_k, y): its column k - c0', its width apart */
            int first = split(TC_N, W, xk);
            int width = split(TC_N, W, xk + 1) - first;
            getBlock(Y * W + xk, colbuf, 1, &tc_block_ptr, (k - first) * 4, width, lr, &flag_col);
            col = colbuf;
        }
        if (yk != Y)
            amWaitFlag(&flag_row);
        if (xk != X)
            amWaitFlag(&flag_col);
        relax(row, col, stride);
        SCMPBarrier();
    }
}

static void gather(void) {
    if (X != 0) { /* our row sums to (0, y), slot x - 1 */
        sendDataBlock(Y * W, (int *)gather_rows + (X - 1) * rmax, 1, (int *)result + r0, 1, lr);
        sendDataIntValue(Y * W, (int *)&flags_row[X], 1);
    }
    if (Y != 0) { /* our column sums to (x, 0), slot y - 1 */
        sendDataBlock(X, (int *)gather_cols + (Y - 1) * cmax, 1, (int *)result + TC_N + c0, 1,
                      lc);
        sendDataIntValue(X, (int *)&flags_col[Y], 1);
    }
    if (X == 0)
        for (int x = 1; x < W; x++) {
            amWaitFlag(&flags_row[x]);
            add_words(result + r0, gather_rows + (x - 1) * rmax, lr);
        }
    if (Y == 0)
        for (int y = 1; y < H; y++) {
            amWaitFlag(&flags_col[y]);
            add_words(result + TC_N + c0, gather_cols + (y - 1) * cmax, lc);
        }
    if (X == 0 && Y != 0) {
        sendDataBlock(0, (int *)result + r0, 1, (int *)result + r0, 1, lr);
        sendDataIntValue(0, (int *)&flags_final_row[Y], 1);
    }
    if (Y == 0 && X != 0) {
        sendDataBlock(0, (int *)result + TC_N + c0, 1, (int *)result + TC_N + c0, 1, lc);
        sendDataIntValue(0, (int *)&flags_final_col[X], 1);
    }
    if (node == 0) {
        for (int y = 1; y < H; y++)
            amWaitFlag(&flags_final_row[y]);
        for (int x = 1; x < W; x++)
            amWaitFlag(&flags_final_col[x]);
    }
}
#define VERSION "active messages, C"
#endif

#ifdef SCMP_MODEL_SR
enum { KIND_ROW = 1, KIND_COL, KIND_GATHER_ROW, KIND_GATHER_COL, KIND_FINAL_ROW, KIND_FINAL_COL };

/* The receives of step k this node needs, into the buffers of k's parity. */
static void post(int k) {
    if (owner_row(k) != Y)
        SCMPReceiveNB(SCMP_ID(KIND_ROW, k, Y), rowbuf + (k & 1) * cmax, 1);
    if (owner_col(k) != X)
        SCMPReceiveNB(SCMP_ID(KIND_COL, k, X), colbuf + (k & 1) * rmax, 1);
}

/* Waits for the receive `id` and clears it. */
static void take(int id) {
    SCMPWaitReceive(id);
    SCMPClearReceive(id);
}

static void steps(void) {
    post(0);
    for (int k = 0; k < TC_N; k++) {
        if (k + 1 < TC_N)
            post(k + 1);
        int yk = owner_row(k), xk = owner_col(k);
        const unsigned *row = rowbuf + (k & 1) * cmax, *col = colbuf + (k & 1) * rmax;
        int stride = 1;
        if (yk == Y) { /* ours: down our grid column */
            row = block + (k - r0) * lc;
            for (int y = 0; y < H; y++)
                if (y != Y)
                    SCMPSendNB(y * W + X, SCMP_ID(KIND_ROW, k, y), (int *)row, 1, lc);
        }
        if (xk == X) { /* ours: along our grid row */
            col = block + (k - c0);
            stride = lc;
            for (int x = 0; x < W; x++)
                if (x != X)
                    SCMPSendNB(Y * W + x, SCMP_ID(KIND_COL, k, x), (int *)col, lc, lr);
        }
        if (yk != Y)
            take(SCMP_ID(KIND_ROW, k, Y));
        if (xk != X)
            take(SCMP_ID(KIND_COL, k, X));
        relax(row, col, stride);
        /* Our sends must be done before step k + 1 changes the block. */
        if (yk == Y)
            for (int y = 0; y < H; y++)
                if (y != Y) {
                    SCMPWaitSend(SCMP_ID(KIND_ROW, k, y));
                    SCMPClearSend(SCMP_ID(KIND_ROW, k, y));
                }
        if (xk == X)
            for (int x = 0; x < W; x++)
                if (x != X) {
                    SCMPWaitSend(SCMP_ID(KIND_COL, k, x));
                    SCMPClearSend(SCMP_ID(KIND_COL, k, x));
                }
    }
}

static void gather(void) {
    /* Every receive this node will take is posted first. */
    if (X == 0)
        for (int x = 1; x < W; x++)
            SCMPReceiveNB(SCMP_ID(KIND_GATHER_ROW, 0, x), gather_rows + (x - 1) * rmax, 1);
    if (Y == 0)
        for (int y = 1; y < H; y++)
            SCMPReceiveNB(SCMP_ID(KIND_GATHER_COL, 0, y), gather_cols + (y - 1) * cmax, 1);
    if (node == 0) {
        for (int y = 1; y < H; y++)
            SCMPReceiveNB(SCMP_ID(KIND_FINAL_ROW, 0, y), result + split(TC_N, H, y), 1);
        for (int x = 1; x < W; x++)
            SCMPReceiveNB(SCMP_ID(KIND_FINAL_COL, 0, x), result + TC_N + split(TC_N, W, x), 1);
    }
    if (X != 0)
        SCMPSend(Y * W, SCMP_ID(KIND_GATHER_ROW, 0, X), (int *)result + r0, 1, lr);
    if (Y != 0)
        SCMPSend(X, SCMP_ID(KIND_GATHER_COL, 0, Y), (int *)result + TC_N + c0, 1, lc);
    if (X == 0)
        for (int x = 1; x < W; x++) {
            take(SCMP_ID(KIND_GATHER_ROW, 0, x));
            add_words(result + r0, gather_rows + (x - 1) * rmax, lr);
        }
    if (Y == 0)
        for (int y = 1; y < H; y++) {
            take(SCMP_ID(KIND_GATHER_COL, 0, y));
            add_words(result + TC_N + c0, gather_cols + (y - 1) * cmax, lc);
        }
    if (X == 0 && Y != 0)
        SCMPSend(0, SCMP_ID(KIND_FINAL_ROW, 0, Y), (int *)result + r0, 1, lr);
    if (Y == 0 && X != 0)
        SCMPSend(0, SCMP_ID(KIND_FINAL_COL, 0, X), (int *)result + TC_N + c0, 1, lc);
    if (node == 0) {
        for (int y = 1; y < H; y++)
            take(SCMP_ID(KIND_FINAL_ROW, 0, y));
        for (int x = 1; x < W; x++)
            take(SCMP_ID(KIND_FINAL_COL, 0, x));
    }
}
#define VERSION "send-and-receive, C"
#endif

static void print_words(const char *name, const unsigned *w, int n) {
    printf("%s", name);
    for (int i = 0; i < n; i++)
        printf(" %u", w[i]);
    printf("\n");
}

int main(void) {
    setup();
    generate();
    SCMPBarrier();
    unsigned start = (unsigned)scmp_cycles(); /* the timed region */
    steps();
    partials();
    gather();
    if (node != 0)
        return 0;
    tc_cycles = (unsigned)scmp_cycles() - start;
    printf("transitive closure (" VERSION ") on %dx%d: n %d, m %d, wmax %d, seed %d\n", W, H,
           TC_N, TC_M, TC_WMAX, TC_SEED);
    print_words("row_sums", result, TC_N);
    print_words("col_sums", result + TC_N, TC_N);
    print_words("timed_cycles", &tc_cycles, 1);
    return 0;
}
