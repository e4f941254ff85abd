/* cg.c: the Matrix stressmark (conjugate gradient on a random sparse
 * symmetric matrix; docs/stressmarks-spec.md section 3, thesis 6.2.2) in
 * C, one source for both designs: active messages (`scmp cc --model am`,
 * original NIU) and send-and-receive in Rendezvous mode (`--model sr`,
 * modified NIU). docs/c-stressmarks.md compares it with the assembly
 * versions (cg_am.s, cg_am_lit.s, cg_sr.s):
 *
 *   scmp cc --model am -O2 stressmarks/matrix/cg.c stressmarks/lib/dis_rng.s \
 *       -DCG_DIM=100 -DCG_NNZ=400 -DCG_MAX_ITER=200 -o cg_am.elf
 *   scmp run cg_am.elf --mesh 4x4 --boot all --niu original
 *
 * Parameters (-D): CG_SEED (-1), CG_DIM rows (10000), CG_NNZ off-diagonal
 * entries requested (100000), CG_MAX_ITER (1000), CG_TOL_E9 the tolerance
 * in units of 1e-9 (10000: 1e-5), CG_DIAG (0 dominant, 1 the public code's
 * rule): the model's.
 *
 * As 6.2.2 describes it: "rows of matrix A and portions of vectors b and
 * r_k are distributed cyclically among the nodes" (row i on node i mod P);
 * "every node keeps complete p_k and x_k vectors but only manipulates its
 * portion of p_k". "Node 0 governs the computations performed on every
 * other node. During each iteration, node 0 creates a thread on every node"
 * (parExecute) for each of three phases, "results of these calculations
 * are returned to node 0 through global reductions, and node 0
 * redistributes the values as needed in subsequent thread messages" (alpha
 * and beta are the phase threads' arguments):
 *   1. q = A p on the node's rows; global sums of p.q and r.r: alpha;
 *   2. x += alpha p everywhere (x is never exchanged), r -= alpha q; global
 *      sums of r.r and of the residual: beta and err; node 0 tests the end;
 *   3. p = r + beta p on the node's rows, then the gather of p: "nodes first
 *      distribute their portions of p_k with nodes in the same column ...
 *      By sharing all of these values with nodes in the same row, every
 *      node will receive all remaining portions of p_k".
 * Node 0's phase threads start the next phase; a node's phase threads take
 * turns, so a phase-1 thread waits until its node's p is complete. A vector of
 * doubles with a stride travels as two word-strided messages (low words,
 * high words), as in the assembly versions.
 *
 * AM: "nodes request portions of p_k by starting threads on nodes in the
 * same column during the column distribution step, and on nodes in the
 * same row in the row distribution step" (getBlock, two per peer and step,
 * with flags); a barrier before each step makes every node's data ready
 * before any request for it, as cg_am_lit.s (the thesis does not say how a
 * request finds its data ready; its request threads send and terminate).
 * SR: "each node executes a non-blocking receive operation for messages
 * from nodes in the same column ... Each node then sends its column or row
 * neighbors ... all updated portions of p_k it currently holds"; ids kind 1
 * / 2 (column step, low / high) or 3 / 4 (row step), step k, index = the
 * sender's coordinate along the step << 6 | the receiver's.
 *
 * Node 0 prints `iterations`, `err`, `x` (dim doubles), `sum_x` and
 * `timed_cycles` (from the barrier after generation until node 0 holds the
 * results). */
/* Every operation rounded separately (the spec's rule: no fused
 * multiply-add); GNU C's default would contract. */
#pragma GCC optimize("fp-contract=off")
#include <math.h>
#include <scmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CG_SEED
#define CG_SEED -1
#endif
#ifndef CG_DIM
#define CG_DIM 10000
#endif
#ifndef CG_NNZ
#define CG_NNZ 100000
#endif
#ifndef CG_MAX_ITER
#define CG_MAX_ITER 1000
#endif
#ifndef CG_TOL_E9
#define CG_TOL_E9 10000
#endif
#ifndef CG_DIAG
#define CG_DIAG 0
#endif
#define PAIRS (CG_NNZ / 2)

/* stressmarks/lib/dis_rng.s: the DIS generator, bit-exact with the model. */
void ran1_init(int seed, void *state);
int rand_int(void *state, int lo, int hi);
float random_float(void *state, float lo, float hi);
float random_non_zero_float(void *state, float lo, float hi, float eps);

static int node, P, W, H, X, Y, nrows; /* own rows: node, node + P, ... */
static int *start, *column;            /* CRS of the own rows */
static double *value;
static double *b, *r, *q;              /* b whole; r, q by own row index */
static double *x, *p;                  /* whole */
/* p's address, which getBlock's thread on the owner reads. */
char *cg_p_ptr;
static double nb;                      /* |b| */
static int rng[34];
/* Node 0: what its phase threads found. */
static double rho, err;
static unsigned cg_cycles;

static void fail(const char *why) {
    if (node != 0)
        scmp_endt();
    printf("matrix: %s\n", why);
    exit(2);
}

/* A u32 hash set of the taken pairs (key i dim + j), open addressing. */
static unsigned *taken, taken_mask;

static int take_pair(unsigned key) { /* 1: it was free and is now taken */
    unsigned h = (key * 2654435761u) & taken_mask;
    while (taken[h] != 0) {
        if (taken[h] == key + 1)
            return 0;
        h = (h + 1) & taken_mask;
    }
    taken[h] = key + 1;
    return 1;
}

struct entry {
    int row, col;
    double v;
};

static int by_position(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* The spec's three groups: the pairs, the diagonal column by column, b. */
static void generate(void) {
    float hi = (float)(3.4e10 / CG_DIM), lo = (float)(-3.4e10 / CG_DIM);
    unsigned size = 1;
    while (size < 2u * PAIRS + 2)
        size *= 2;
    taken = calloc(size, sizeof *taken);
    taken_mask = size - 1;
    /* Own entries: about 2 PAIRS / P, grown as needed. */
    int cap = 2 * PAIRS / P + 64, n = 0;
    struct entry *e = malloc(cap * sizeof *e);
    if (!taken || !e)
        fail("the generator's tables do not fit");
    ran1_init(CG_SEED, rng);
    for (int t = 0; t < PAIRS; t++) {
        int i = rand_int(rng, 1, CG_DIM - 1);
        int j = rand_int(rng, 0, i - 1);
        while (!take_pair((unsigned)i * CG_DIM + j)) {
            i++;
            if (i == CG_DIM) {
                j++;
                if (j == CG_DIM - 1) {
                    i = 1;
                    j = 0;
                } else {
                    i = j + 1;
                }
            }
        }
        double v = (double)random_non_zero_float(rng, lo, hi, 1e-10f);
        for (int side = 0; side < 2; side++) {
            int row = side ? j : i, col = side ? i : j;
            if (row % P != node)
                continue;
            if (n + 1 > cap) {
                cap *= 2;
                e = realloc(e, cap * sizeof *e);
                if (!e)
                    fail("the matrix does not fit: use more tiles or a smaller one");
            }
            e[n++] = (struct entry){row, col, v};
        }
    }
    free(taken);
    qsort(e, n, sizeof *e, by_position);
    start = malloc((nrows + 1) * sizeof *start);
    column = malloc((n + nrows) * sizeof *column);
    value = malloc((n + nrows) * sizeof *value);
    if (!start || !column || !value)
        fail("the matrix does not fit: use more tiles or a smaller one");
    /* The diagonal, drawn for every column; kept for the own rows. */
    int at = 0, k = 0;
    for (int c = 0; c < CG_DIM; c++) {
        double d = (double)random_non_zero_float(rng, -3.4e10f, 3.4e10f, 1e-10f);
        if (c % P != node)
            continue;
        int first = at;
        while (at < n && e[at].row == c)
            at++;
        double s = 0.0;
        if (CG_DIAG == 1) {
            for (int t = first; t < at; t++)
                s += e[t].v;
            if (d < s)
                d += s;
        } else {
            d = fabs(d);
            for (int t = first; t < at; t++)
                s += fabs(e[t].v);
            if (d < s)
                d += s;
        }
        int l = c / P;
        start[l] = k;
        int placed = 0;
        for (int t = first; t < at; t++) {
            if (!placed && e[t].col > c) {
                column[k] = c;
                value[k++] = d;
                placed = 1;
            }
            column[k] = e[t].col;
            value[k++] = e[t].v;
        }
        if (!placed) {
            column[k] = c;
            value[k++] = d;
        }
    }
    start[nrows] = k;
    free(e);
    for (int i = 0; i < CG_DIM; i++)
        b[i] = (double)random_float(rng, lo, hi);
}

static void setup(void) {
    node = scmp_node_id();
    W = scmp_mesh_width();
    H = scmp_mesh_height();
    P = W * H;
    X = node % W;
    Y = node / W;
    if (CG_NNZ <= CG_DIM || PAIRS > (long long)CG_DIM * (CG_DIM - 1) / 2)
        fail("nnz must exceed dim and nnz/2 be at most dim(dim-1)/2");
    if (W > 64 || H > 64)
        fail("the mesh must be at most 64 wide and high (the message ids)");
    nrows = node < CG_DIM ? (CG_DIM - node + P - 1) / P : 0;
    b = malloc(CG_DIM * sizeof *b);
    x = calloc(CG_DIM, sizeof *x);
    p = malloc(CG_DIM * sizeof *p);
    r = malloc((nrows + 1) * sizeof *r);
    q = malloc((nrows + 1) * sizeof *q);
    if (!b || !x || !p || !r || !q)
        fail("the vectors do not fit");
    cg_p_ptr = (char *)p;
}

static double row_dot(int l, const double *v) {
    double s = 0.0;
    for (int t = start[l]; t < start[l + 1]; t++)
        s += value[t] * v[column[t]];
    return s;
}

static double from_words(int lo, int hi) {
    unsigned long long w = (unsigned)lo | (unsigned long long)(unsigned)hi << 32;
    double d;
    memcpy(&d, &w, sizeof d);
    return d;
}

static void words(double d, int *lo, int *hi) {
    unsigned long long w;
    memcpy(&w, &d, sizeof w);
    *lo = (int)(unsigned)w;
    *hi = (int)(unsigned)(w >> 32);
}

/* Elements first, first + stride, ... below dim. */
static int count_of(int first, int stride) {
    return first < CG_DIM ? (CG_DIM - first + stride - 1) / stride : 0;
}

#ifdef SCMP_MODEL_AM
static volatile int flags[4 * 64];

/* Requests p's elements first, first + stride, ... from node `from` into
 * our p, low and high words, with flags 2 slot and 2 slot + 1. */
static void request(int from, int first, int stride, int slot) {
    int n = count_of(first, stride);
    if (n == 0) {
        flags[2 * slot] = flags[2 * slot + 1] = 1;
        return;
    }
    getBlock(from, (int *)&p[first], 2 * stride, &cg_p_ptr, first * 8, 2 * stride, n,
             &flags[2 * slot]);
    getBlock(from, (int *)&p[first] + 1, 2 * stride, &cg_p_ptr, first * 8 + 4, 2 * stride, n,
             &flags[2 * slot + 1]);
}

static void gather(int k) {
    (void)k;
    SCMPBarrier(); /* every node's own p_i are updated */
    for (int y = 0; y < H; y++)
        if (y != Y)
            request(y * W + X, y * W + X, P, y);
    for (int y = 0; y < H; y++)
        if (y != Y) {
            amWaitFlag(&flags[2 * y]);
            amWaitFlag(&flags[2 * y + 1]);
        }
    SCMPBarrier(); /* every node holds its grid column's */
    for (int xx = 0; xx < W; xx++)
        if (xx != X)
            request(Y * W + xx, xx, W, H + xx);
    for (int xx = 0; xx < W; xx++)
        if (xx != X) {
            amWaitFlag(&flags[2 * (H + xx)]);
            amWaitFlag(&flags[2 * (H + xx) + 1]);
        }
}
#define VERSION "active messages, C"
#endif

#ifdef SCMP_MODEL_SR
enum { KIND_COL = 1, KIND_ROW = 3 };

static int id_of(int kind, int k, int src, int dst) { return SCMP_ID(kind, k, src << 6 | dst); }

/* One step: receive from every peer its elements (first(peer), stride),
 * send each peer ours (first(self), stride), wait. */
static void step(int kind, int k, int peers, int self, int stride, int (*node_of)(int),
                 int (*first_of)(int)) {
    for (int o = 0; o < peers; o++)
        if (o != self && count_of(first_of(o), stride) > 0)
            for (int h = 0; h < 2; h++)
                SCMPReceiveNB(id_of(kind + h, k, o, self), (int *)&p[first_of(o)] + h,
                              2 * stride);
    int n = count_of(first_of(self), stride);
    for (int o = 0; o < peers; o++)
        if (o != self && n > 0)
            for (int h = 0; h < 2; h++)
                SCMPSendNB(node_of(o), id_of(kind + h, k, self, o),
                           (int *)&p[first_of(self)] + h, 2 * stride, n);
    for (int o = 0; o < peers; o++)
        if (o != self && count_of(first_of(o), stride) > 0)
            for (int h = 0; h < 2; h++) {
                SCMPWaitReceive(id_of(kind + h, k, o, self));
                SCMPClearReceive(id_of(kind + h, k, o, self));
            }
    for (int o = 0; o < peers; o++)
        if (o != self && n > 0)
            for (int h = 0; h < 2; h++) {
                SCMPWaitSend(id_of(kind + h, k, self, o));
                SCMPClearSend(id_of(kind + h, k, self, o));
            }
}

static int column_node(int y) { return y * W + X; }
static int column_first(int y) { return y * W + X; }
static int row_node(int xx) { return Y * W + xx; }
static int row_first(int xx) { return xx; }

static void gather(int k) {
    step(KIND_COL, k, H, Y, P, column_node, column_first);
    step(KIND_ROW, k, W, X, W, row_node, row_first);
}
#define VERSION "send-and-receive, C"
#endif

/* The node's phase threads take turns (phase t of iteration k is turn
 * 3 k + t - 1): one at a time uses the collectives and the NIU's tables,
 * and a phase-1 thread so waits for its node's p to be complete. */
static volatile int turn;

static void wait_turn(int t) {
    while (turn != t)
        scmp_yield();
}

static void report(int k);
static int phase2(int alo, int ahi, int k);
static int phase3(int k, int blo, int bhi);

/* Phase 1 of iteration k: q = A p, alpha; node 0 starts phase 2. */
static int phase1(int k) {
    wait_turn(3 * k);
    double pq = 0.0, rr = 0.0;
    for (int l = 0; l < nrows; l++) {
        q[l] = row_dot(l, p);
        pq += p[node + l * P] * q[l];
        rr += r[l] * r[l];
    }
    pq = SCMPReduceSumDouble(pq);
    rr = SCMPReduceSumDouble(rr);
    turn = 3 * k + 1;
    if (node == 0) {
        rho = rr;
        int lo, hi;
        words(rr / pq, &lo, &hi);
        parExecute(P, (scmp_thread_fn)phase2, lo, hi, k);
    }
    return 0;
}

/* Phase 2: x and r; beta and err; node 0 tests the end and starts phase 3
 * or reports. */
static int phase2(int alo, int ahi, int k) {
    wait_turn(3 * k + 1);
    double a = from_words(alo, ahi), rr = 0.0, res = 0.0;
    for (int j = 0; j < CG_DIM; j++)
        x[j] += a * p[j];
    for (int l = 0; l < nrows; l++) {
        r[l] -= a * q[l];
        rr += r[l] * r[l];
        double d = row_dot(l, x) - b[node + l * P];
        res += d * d;
    }
    rr = SCMPReduceSumDouble(rr);
    res = SCMPReduceSumDouble(res);
    turn = 3 * k + 2;
    if (node == 0) {
        err = sqrt(res) / nb;
        if (k + 1 < CG_MAX_ITER && err > CG_TOL_E9 * 1e-9) {
            int lo, hi;
            words(rr / rho, &lo, &hi);
            parExecute(P, (scmp_thread_fn)phase3, k + 1, lo, hi);
        } else {
            report(k + 1);
        }
    }
    return 0;
}

/* Phase 3, before iteration k: p on the own rows, then the gather; node 0
 * then starts phase 1. */
static int phase3(int k, int blo, int bhi) {
    wait_turn(3 * k - 1);
    double bt = from_words(blo, bhi);
    for (int l = 0; l < nrows; l++)
        p[node + l * P] = r[l] + bt * p[node + l * P];
    gather(k);
    turn = 3 * k;
    if (node == 0)
        parExecute(P, (scmp_thread_fn)phase1, k);
    return 0;
}

static unsigned long long bits(double v) {
    unsigned long long w;
    memcpy(&w, &v, sizeof w);
    return w;
}

static unsigned start_cycles;

/* Node 0, once it holds the results of iteration k. */
static void report(int k) {
    cg_cycles = (unsigned)scmp_cycles() - start_cycles;
    double sum = 0.0;
    for (int i = 0; i < CG_DIM; i++)
        sum += x[i];
    printf("matrix (" VERSION ") on %dx%d: dim %d, nnz %d\n", W, H, CG_DIM, CG_NNZ);
    printf("iterations %d\n", k);
    printf("err 0x%016llx\n", bits(err));
    for (int i = 0; i < CG_DIM; i += 8) {
        printf("x");
        for (int t = i; t < i + 8 && t < CG_DIM; t++)
            printf(" 0x%016llx", bits(x[t]));
        printf("\n");
    }
    printf("sum_x 0x%016llx\n", bits(sum));
    printf("timed_cycles %u\n", cg_cycles);
    fflush(stdout);
}

int main(void) {
    setup();
    generate();
    for (int i = 0; i < CG_DIM; i++)
        p[i] = b[i];
    for (int l = 0; l < nrows; l++)
        r[l] = b[node + l * P];
    double bb = 0.0;
    for (int i = 0; i < CG_DIM; i++)
        bb += b[i] * b[i];
    nb = sqrt(bb);
    SCMPBarrier();
    if (node != 0)
        return 0; /* the phase threads do the rest */
    start_cycles = (unsigned)scmp_cycles(); /* the timed region */
    err = sqrt(bb) / nb; /* |A 0 - b| / |b| */
    if (CG_MAX_ITER > 0 && err > CG_TOL_E9 * 1e-9)
        parExecute(P, (scmp_thread_fn)phase1, 0);
    else
        report(0);
    return 0;
}
