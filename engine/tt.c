/* The transposition table: lock-free buckets of relaxed atomic words, keys stored XORed with their data. */
/* madvise is the system's, outside POSIX. */
#define _DEFAULT_SOURCE
#include "tt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../rules/score.h"

/* Packed entry data: move 29 bits (cells, the five promotion bits a type needs, and the flag, fission
 * and castling bits from bit 24), score 16, depth 8, bound 2, age 6. */
static uint64_t pack(move_t move, int score, int depth, int bound, unsigned age)
{
    uint64_t m = (move & 0x1fffff) | ((uint64_t)(move >> 24) & 0xff) << 21;
    return m | (uint64_t)(uint16_t)(int16_t)score << 29 | (uint64_t)(uint8_t)(depth + 1) << 45
           | (uint64_t)bound << 53 | (uint64_t)(age & 63) << 55;
}

static move_t unpack_move(uint64_t d)
{
    return (move_t)(d & 0x1fffff) | (move_t)((d >> 21) & 0xff) << 24;
}

static int unpack_depth(uint64_t d) { return (int)((d >> 45) & 0xff) - 1; }
static int unpack_bound(uint64_t d) { return (int)((d >> 53) & 3); }
static unsigned unpack_age(uint64_t d) { return (unsigned)((d >> 55) & 63); }

/* The key word: 48 bits of key ^ data (with the bucket's, chosen by the key's high bits, enough to
 * tell positions apart) and the evaluation in the low 16. */
static uint64_t pack_check(uint64_t key, uint64_t data, int eval)
{
    return (key ^ data) << 16 | (uint16_t)(int16_t)eval;
}

static bool check_matches(uint64_t check, uint64_t key, uint64_t data)
{
    return check >> 16 == ((key ^ data) & 0xffffffffffffull);
}

static int unpack_eval(uint64_t check) { return (int16_t)(uint16_t)check; }

/* Tables and the shares cleared by each thread start on a page. */
enum { PAGE = 4096, HUGE_PAGE = 2 << 20, HUGE_TABLE_MAX_MB = 128 };

bool tt_resize(struct tt *tt, size_t mb, int threads)
{
    if (mb < 1 || mb > TT_MAX_MB)
        return false;
    size_t bytes = mb << 20, nbuckets = bytes / (TT_BUCKET * sizeof(struct tt_entry));
    struct tt_entry *e = NULL;
    if (posix_memalign((void **)&e, HUGE_PAGE, nbuckets * TT_BUCKET * sizeof *e))
        return false;
#ifdef MADV_HUGEPAGE
    /* Every probe lands on a random page: on 4 KB pages most of them miss the TLB. Larger tables
     * stay on small pages: the kernel compacts memory to fault huge pages in, 4x slower from 512 MB
     * (docs/engine.md). */
    if (mb <= HUGE_TABLE_MAX_MB)
        madvise(e, nbuckets * TT_BUCKET * sizeof *e, MADV_HUGEPAGE);
#endif
    free(tt->entries);
    tt->entries = e;
    tt->nbuckets = nbuckets;
    tt->mb = mb;
    tt_clear(tt, threads);
    return true;
}

void tt_free(struct tt *tt)
{
    free(tt->entries);
    memset(tt, 0, sizeof *tt);
}

struct clear_share {
    struct tt_entry *from;
    size_t count;
};

static void *clear_share(void *arg)
{
    const struct clear_share *s = arg;
    /* Faulting the pages in at once saves a trap per page: with MADV_POPULATE_WRITE (Linux 5.14)
     * half the processor time of faulting them by the writes (measured on 1 GB). Where the system
     * has it not, the writes fault them in. */
#ifdef MADV_POPULATE_WRITE
    madvise(s->from, s->count * sizeof *s->from, MADV_POPULATE_WRITE);
#endif
    memset(s->from, 0, s->count * sizeof *s->from);
    return NULL;
}

/* Shares of at least this many bytes: below it a thread costs more than it saves. */
enum { CLEAR_SHARE_MIN = 16 << 20 };

void tt_clear(struct tt *tt, int threads)
{
    /* Zeroing a fresh table is what faults its pages in: as many threads as the search uses do it
     * side by side, each its own contiguous share, as Stockfish does. A share whose thread cannot
     * start is done by the caller. */
    size_t n = tt->nbuckets * TT_BUCKET, most = n * sizeof *tt->entries / CLEAR_SHARE_MIN + 1;
    int k = threads < 1 ? 1 : threads > TT_MAX_CLEAR_THREADS ? TT_MAX_CLEAR_THREADS : threads;
    if ((size_t)k > most)
        k = (int)most;
    struct clear_share shares[TT_MAX_CLEAR_THREADS];
    pthread_t tid[TT_MAX_CLEAR_THREADS];
    bool started[TT_MAX_CLEAR_THREADS] = { false };
    size_t page = PAGE / sizeof *tt->entries, lo = 0;
    for (int i = 0; i < k; i++) {
        size_t hi = i == k - 1 ? n : n * (size_t)(i + 1) / (size_t)k / page * page;
        shares[i] = (struct clear_share){ tt->entries + lo, hi - lo };
        lo = hi;
    }
    for (int i = 1; i < k; i++)
        started[i] = !pthread_create(&tid[i], NULL, clear_share, &shares[i]);
    for (int i = 0; i < k; i++)
        if (!started[i])
            clear_share(&shares[i]);
    for (int i = 1; i < k; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    tt->age = 0;
}

void tt_new_search(struct tt *tt)
{
    tt->age = (tt->age + 1) & 63;
}

static uint64_t load(const _Atomic uint64_t *w)
{
    return atomic_load_explicit(w, memory_order_relaxed);
}

static void store(_Atomic uint64_t *w, uint64_t v)
{
    atomic_store_explicit(w, v, memory_order_relaxed);
}

bool tt_probe(const struct tt *tt, uint64_t key, struct tt_hit *hit)
{
    const struct tt_entry *b = tt_bucket(tt, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t data = load(&b[i].data), check = load(&b[i].check);
        if (!check_matches(check, key, data) || !data)
            continue;
        hit->move = unpack_move(data);
        hit->score = (int16_t)(uint16_t)(data >> 29);
        hit->depth = unpack_depth(data);
        hit->bound = unpack_bound(data);
        hit->eval = unpack_eval(check);
        return true;
    }
    return false;
}

void tt_store(struct tt *tt, uint64_t key, move_t move, int score, int depth, int bound, int eval)
{
    struct tt_entry *b = tt_bucket(tt, key), *victim = b;
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t data = load(&b[i].data), check = load(&b[i].check);
        if (check_matches(check, key, data)) {
            victim = &b[i];
            /* Keep the old move and evaluation when the new search found none. */
            if (!move)
                move = unpack_move(data);
            if (eval == SCORE_NONE)
                eval = unpack_eval(check);
            break;
        }
        /* Replace the shallowest entry, counting old searches' entries as shallower. */
        int worth = unpack_depth(data) - 8 * (int)((tt->age - unpack_age(data)) & 63);
        if (worth < worst) {
            worst = worth;
            victim = &b[i];
        }
    }
    uint64_t data = pack(move, score, depth, bound, tt->age);
    store(&victim->data, data);
    store(&victim->check, pack_check(key, data, eval));
}

int tt_hashfull(const struct tt *tt)
{
    int used = 0, sampled = 0;
    for (size_t i = 0; i < 1000 && i < tt->nbuckets * TT_BUCKET; i++, sampled++) {
        uint64_t d = load(&tt->entries[i].data);
        used += d && unpack_age(d) == tt->age;
    }
    return sampled ? used * 1000 / sampled : 0;
}

int tt_score_to(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

int tt_score_from(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}
