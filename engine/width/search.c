/* Iterative deepening principal-variation alpha-beta with quiescence, one worker per thread sharing
 * the transposition table (Lazy SMP). Included by engine/width/instance.c, once per cell-set width. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_tables.h"
#include "../search.h"
#include "../search_params.h"
#include "../skill.h"
#include "../../util/clock.h"

struct stack {
    move_t move;           /* the move that led to the next ply */
    int moved;             /* piece code that made it */
    bool in_check;         /* the side to move at this ply is in check */
    int eval;              /* the static evaluation here, SCORE_NONE in check or not known */
    move_t killers[2];
};

struct root_move {
    move_t move;
    int score, prev_score;
    int seldepth;
    int pvlen;
    move_t pv[MAX_PLY];
};

struct worker {
    int root_depth;
    const struct tables *tb;
    const struct eval_tables *et;
    struct position *pos;
    struct search_shared *sh;
    int id;
    uint64_t nodes;
    int seldepth;
    int pv_index;
    int root_index;        /* the root move being searched */
    int played;            /* the root line played, picked when the search ends */
    int64_t next_progress_ms;
    int nroot;
    struct root_move *root;
    int completed_depth;
    int armies;            /* on the board at the root */
    int root_player;       /* three armies: the player the three-player search plays for */
    int16_t history[MAX_PLAYERS][MAX_CELLS][MAX_CELLS];
    move_t counter[4 * (MAX_TYPES + 1)][MAX_CELLS];
    struct stack stack[MAX_PLY + 4];
    struct pawn_cache pawn_cache;
    struct eval_cache eval_cache;
    struct target_memo memo[MAX_CELLS];  /* the pieces' targets, for the evaluation and the lists */
    int pvlen[MAX_PLY + 1];
    move_t pv[MAX_PLY + 1][MAX_PLY + 1];
};

enum { HISTORY_MAX = 16384 };

/* Late move reductions by depth and move number; built once at start-up (engine_init), never while
 * threads search. */
static int reductions[64][64];

static void search_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            reductions[d][m] = (int)(LMR_BASE + log(d) * log(m) / LMR_DIVISOR);
}

static struct worker *worker_new(const struct engine_tables *t)
{
    struct worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->tb = t->move;
    w->et = &t->eval;
    w->pos = position_new(w->tb);
    w->root = calloc(MAX_MOVES, sizeof *w->root);
    if (!w->pos || !w->root) {
        position_free(w->pos);
        free(w->root);
        free(w);
        return NULL;
    }
    return w;
}

static void worker_free(struct worker *w)
{
    if (w) {
        position_free(w->pos);
        free(w->root);
    }
    free(w);
}

/* Forgets what past searches learned (ucinewgame, bench). */
static void worker_clear(struct worker *w)
{
    memset(w->history, 0, sizeof w->history);
    memset(w->counter, 0, sizeof w->counter);
}

/* The stalemated side's score: a draw is 0, and a whole point is stalemate_scale (variants.md). */
static int stalemate_score(const struct worker *w, int ply)
{
    const struct variant *v = w->pos->v;
    int num = v->stalemate_den - v->stalemate_num;
    int score = (2 * num - v->stalemate_den) * w->sh->weights.stalemate_scale / v->stalemate_den;
    /* Like mates: suffer it as late, and deliver it as soon, as possible. */
    return score < 0 ? score + ply : score > 0 ? score - ply : 0;
}

static bool search_stopped(struct worker *w)
{
    return atomic_load_explicit(&w->sh->stop, memory_order_relaxed);
}


/* Tells the front end what the main worker is doing, so that a long iteration is not silence. */
static void progress(struct worker *w, int64_t now)
{
    struct search_shared *sh = w->sh;
    struct search_progress p = {
        .depth = w->root_depth,
        .currmove_number = w->root_index + 1,
        .currmove = w->root[w->root_index].move,
        .nodes = search_total_nodes(sh),
        .time_ms = now - sh->start_ms,
        .hashfull = tt_hashfull(sh->tt),
    };
    w->next_progress_ms = now + PROGRESS_EVERY_MS;
    sh->progress(sh->report_ctx, &p);
}

/* The main worker watches the clock and the node limit, and reports progress. */
static void search_check_limits(struct worker *w)
{
    struct search_shared *sh = w->sh;
    if (sh->limits.nodes && (sh->nthreads == 1 ? w->nodes : search_total_nodes(sh)) >= sh->limits.nodes)
        atomic_store(&sh->stop, true);
    /* The clock only every 256 nodes, and not at all for searches with neither a clock nor a front end. */
    if ((w->nodes & 255) != 0 || (!sh->hard_ms && !sh->progress))
        return;
    int64_t now = clock_ms();
    if (sh->hard_ms && !atomic_load(&sh->pondering) && now - sh->start_ms >= sh->hard_ms)
        atomic_store(&sh->stop, true);
    if (sh->progress && now >= w->next_progress_ms && w->root_depth > 0)
        progress(w, now);
}

static inline int piece_value(const struct eval_data *ev, int piece)
{
    return piece ? ev->value[piece_type(piece)] : 0;
}

/* A move onto an own piece is a fusion, not a capture. */
static inline bool is_capture(const struct position *pos, move_t m)
{
    int p = pos->board[move_to(m)];
    return (p && piece_colour(p) != pos->side) || (m & MOVE_EP);
}

static inline bool is_quiet(const struct position *pos, move_t m)
{
    return !is_capture(pos, m) && move_promo(m) < 0;
}

/* Static exchange evaluation against a threshold: whether the capture sequence on the target cell,
 * each side capturing with its least valuable piece, either side free to stop, comes to at least
 * `threshold` for the mover. swap is what the side about to capture must win back for the answer to
 * turn; the sequence is followed only while a capture can still turn it (res: the answer so far). */
static bool see_ge(const struct eval_data *ev, const struct position *pos, move_t m, int threshold)
{
    const struct tables *tb = pos->tb;
    int to = move_to(m), from = move_from(m), us = pos->side;
    cellset occ = cs_xor(pos->occ, tb->bit[from]);
    int swap;
    if (m & MOVE_EP) {
        int victim = pos->st[pos->ply].ep_victim;
        swap = ev->value[piece_type(pos->board[victim])];
        occ = cs_xor(occ, tb->bit[victim]);
    } else {
        swap = piece_value(ev, pos->board[to]);
    }
    int on_cell = move_promo(m) >= 0 ? ev->value[move_promo(m)] : piece_value(ev, pos->board[from]);
    if (move_promo(m) >= 0)
        swap += on_cell - ev->value[piece_type(pos->board[from])];
    if ((swap -= threshold) < 0)
        return false;
    if ((swap = on_cell - swap) <= 0)
        return true;
    struct exchange x;
    exchange_init(&x, pos, to, occ);
    bool res = true;
    for (int side = pos_next_player(pos, us);; side = pos_next_player(pos, side)) {
        cellset cands = cs_and(exchange_attackers(&x, occ), pos->by_colour[side]);
        if (cs_is_empty(cands))
            break;
        res = !res;
        int from2 = CELL_NONE, best_type = -1;
        for (int k = 0; k < pos->v->ntypes && from2 == CELL_NONE; k++) {
            cellset c = cs_and(cands, pos->by_type[ev->by_value[k]]);
            if (!cs_is_empty(c)) {
                from2 = cs_lsb(c);
                best_type = ev->by_value[k];
            }
        }
        /* A royal that captures is lost to any capture back. */
        if ((swap = (pos->v->piece[best_type].royal ? 100000 : ev->value[best_type]) - swap) < res)
            break;
        occ = cs_xor(occ, tb->bit[from2]);
        exchange_leave(&x, pos, from2, occ);
    }
    return res;
}

static inline int history_of(const struct worker *w, move_t m)
{
    return w->history[w->pos->side][move_from(m)][move_to(m)];
}

/* History gravity: large bonuses saturate, so the table follows the search's recent verdicts. */
static void history_update(struct worker *w, move_t m, int bonus)
{
    int16_t *h = &w->history[w->pos->side][move_from(m)][move_to(m)];
    *h += (int16_t)(bonus - *h * abs(bonus) / HISTORY_MAX);
}

/* Move order: hash move, captures and promotions by victim then attacker, killers, the counter
 * move, then quiet moves by history. */
/* The victim's value (en passant: a pawn, as the taker is) plus the promotion piece's value. */
static int capture_value(const struct worker *w, move_t m)
{
    const struct position *pos = w->pos;
    int victim = piece_value(w->et->data, pos->board[m & MOVE_EP ? move_from(m) : move_to(m)]);
    return victim + (move_promo(m) >= 0 ? w->et->data->value[move_promo(m)] : 0);
}

/* Capturing a piece worth at least the taker's value cannot lose material. */
static bool capture_is_safe(const struct worker *w, move_t m)
{
    return capture_value(w, m) >= piece_value(w->et->data, w->pos->board[move_from(m)]);
}

/* A capture that is safe, or that SEE finds does not lose. */
static bool capture_is_good(const struct worker *w, move_t m)
{
    return capture_is_safe(w, m) || see_ge(w->et->data, w->pos, m, 0);
}

enum { ORDER_TT = 1 << 30, ORDER_GOOD_CAPTURE = 1 << 28, ORDER_BAD_CAPTURE = -(1 << 24) };

/* The move that last refuted the previous move (the counter-move table). */
static inline move_t counter_move(const struct worker *w, int ply)
{
    return ply > 0 && w->stack[ply - 1].move ? w->counter[w->stack[ply - 1].moved][move_to(w->stack[ply - 1].move)]
                                             : MOVE_NONE;
}

/* Scores past a list's end hold PICK_PAD of INT_MIN, so that pick_best reads whole vectors. */
enum { PICK_PAD = 8 };

static void pick_pad(int *scores, int n)
{
    for (int k = n; k < n + PICK_PAD; k++)
        scores[k] = INT_MIN;
}

/* Scores the n moves of list (and pads the scores: pick_pad). use_see: losing captures go after the
 * quiet moves (main search); the quiescence search asks capture_is_good only of the captures it
 * reaches. see_later (with use_see): a capture that needs SEE is scored as if it won, flagged
 * MOVE_SEE_LATER, for pick_move to ask when it would pick it. */
static void score_moves(struct worker *w, int ply, move_t *list, int *scores, int n, move_t tt_move,
                        bool use_see, bool see_later)
{
    const struct position *pos = w->pos;
    const struct stack *ss = &w->stack[ply];
    move_t counter = counter_move(w, ply);
    for (int i = 0; i < n; i++) {
        move_t m = list[i] & ~MOVE_UNTESTED;
        if (m == tt_move) {
            scores[i] = ORDER_TT;
        } else if (!is_quiet(pos, m)) {
            int mvv = capture_value(w, m) * 16 - piece_value(w->et->data, pos->board[move_from(m)]) / 16;
            bool sure = !use_see || capture_is_safe(w, m);
            if (!sure && see_later)
                list[i] |= MOVE_SEE_LATER;
            scores[i] = sure || see_later || see_ge(w->et->data, pos, m, 0) ? ORDER_GOOD_CAPTURE + mvv
                                                                             : ORDER_BAD_CAPTURE + mvv;
        } else if (m == ss->killers[0]) {
            scores[i] = (1 << 27) + 2;
        } else if (m == ss->killers[1]) {
            scores[i] = (1 << 27) + 1;
        } else if (m == counter) {
            scores[i] = 1 << 27;
        } else {
            scores[i] = history_of(w, m);
        }
    }
    pick_pad(scores, n);
}

/* The first of the highest scores in [i, n). With AVX2, eight at a time: the maximum, then where it
 * first comes by a mask; else in a loop without branches (which the compiler vectorises), then a walk
 * (long quiet lists made the branch of a running index mispredict). */
static inline int pick_best(const int *scores, int n, int i)
{
#ifdef __AVX2__
    __m256i top = _mm256_set1_epi32(INT_MIN);
    for (int j = i; j < n; j += PICK_PAD)
        top = _mm256_max_epi32(top, _mm256_loadu_si256((const __m256i *)(scores + j)));
    /* The maximum into every lane: the halves, then the pairs, then the neighbours. */
    top = _mm256_max_epi32(top, _mm256_permute2x128_si256(top, top, 1));
    top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, _MM_SHUFFLE(1, 0, 3, 2)));
    top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, _MM_SHUFFLE(2, 3, 0, 1)));
    for (int j = i;; j += PICK_PAD) {
        __m256i same = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(scores + j)), top);
        unsigned lanes = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(same));
        if (lanes)
            return j + __builtin_ctz(lanes);
    }
#else
    int top = scores[i], best;
    for (int j = i + 1; j < n; j++)
        top = scores[j] > top ? scores[j] : top;
    for (best = i; scores[best] != top; best++)
        ;
    return best;
#endif
}

/* Moves the best-scored remaining move to position i. A capture flagged MOVE_SEE_LATER that would be
 * picked is first asked SEE: losing, it takes the losing captures' score and the pick is made again, so
 * the same move comes as if every capture had been asked when scored. */
static move_t pick_move(struct worker *w, move_t *list, int *scores, int n, int i)
{
    int best;
    for (;;) {
        best = pick_best(scores, n, i);
        if (!(list[best] & MOVE_SEE_LATER))
            break;
        list[best] &= ~MOVE_SEE_LATER;
        if (!see_ge(w->et->data, w->pos, list[best] & ~MOVE_UNTESTED, 0))
            scores[best] += ORDER_BAD_CAPTURE - ORDER_GOOD_CAPTURE;
    }
    move_t m = list[best];
    int s = scores[best];
    list[best] = list[i];
    scores[best] = scores[i];
    list[i] = m;
    scores[i] = s;
    return m;
}

/* Whether m, of the search's lists (movegen_pseudo), is legal: a flagged move is tested against curved
 * and hopping attackers only now, when the search tries it. */
static inline bool tried_is_legal(const struct position *pos, const struct exotic_paths *late, move_t m)
{
    return !(m & MOVE_UNTESTED) || movegen_is_safe(pos, late, m & ~MOVE_UNTESTED);
}

/* Staged move picking (docs/engine.md): the table's move before any list, since it often refutes
 * alone; then, in the main search out of check, the captures and promotions that do not lose material
 * (SEE), the best first; then the quiet moves, generated only when reached and scored by the history
 * as it stands then, with the losing captures after them. Elsewhere one list follows the table's move:
 * the captures-only list of the quiescence search, the evasions in check. */
enum { PICK_TT, PICK_FIRST, PICK_CAPTURES, PICK_REST };
struct picker {
    move_t tt_move;   /* the table's move */
    move_t tt;        /* the table's move as the lists hold it (MOVE_UNTESTED kept), or MOVE_NONE */
    bool noisy;       /* the quiescence search's list: captures and promotions, not in check */
    bool split;       /* captures and promotions first, the quiet moves when reached */
    bool use_see;     /* score_moves' use_see */
    int stage;        /* PICK_*: what picker_next does next */
    int n, i;         /* the moves listed so far, the next move's index */
    move_t list[MAX_MOVES];
    int scores[MAX_MOVES + PICK_PAD];
};

/* The first list (from index 0): the captures-only list, or the whole list. The table's move, tried
 * already, is taken out as picking it first would have (scored above all, it is picked at 0). */
static void picker_fill(struct worker *w, int ply, struct picker *mp, struct exotic_paths *late)
{
    mp->n = mp->noisy || mp->split ? movegen_pseudo_noisy(w->pos, mp->list, late, w->memo)
                                   : movegen_pseudo(w->pos, mp->list, late, w->memo);
    score_moves(w, ply, mp->list, mp->scores, mp->n, mp->tt_move, mp->use_see, mp->use_see);
    if (mp->tt && mp->n) {
        pick_move(w, mp->list, mp->scores, mp->n, 0);
        mp->i = mp->scores[0] == ORDER_TT;
    }
}

/* After the captures and promotions that do not lose: the quiet moves (the whole list's others) go
 * after the losing captures left in [i, n), less the table's move, and the picking of the rest orders
 * them all (the losing captures last). */
static void picker_add_quiets(struct worker *w, int ply, struct picker *mp, struct exotic_paths *late)
{
    const int first = mp->n;
    mp->n += movegen_pseudo_quiet(w->pos, mp->list + first, late, w->memo);
    for (int k = first; k < mp->n; k++)
        if ((mp->list[k] & ~MOVE_UNTESTED) == (mp->tt & ~MOVE_UNTESTED)) {
            memmove(mp->list + k, mp->list + k + 1, (size_t)(mp->n - k - 1) * sizeof *mp->list);
            mp->n--;
            break;
        }
    score_moves(w, ply, mp->list + first, mp->scores + first, mp->n - first, MOVE_NONE, false, false);
}

/* noisy: the quiescence search's captures-only list; split (the main search out of check): captures
 * first, the quiet moves when reached; neither: the whole list (evasions). */
static void picker_init(struct worker *w, struct picker *mp, move_t tt_move, bool noisy, bool split, bool use_see,
                        struct exotic_paths *late)
{
    mp->tt_move = tt_move;
    mp->tt = tt_move ? movegen_pseudo_member(w->pos, tt_move, noisy, late) : MOVE_NONE;
    mp->noisy = noisy;
    mp->split = split;
    mp->use_see = use_see;
    mp->stage = mp->tt ? PICK_TT : PICK_FIRST;
    mp->n = -1;
    mp->i = 0;
}

/* The next move to try, MOVE_UNTESTED kept; MOVE_NONE at the end. */
static move_t picker_next(struct worker *w, int ply, struct picker *mp, struct exotic_paths *late)
{
    switch (mp->stage) {
    case PICK_TT:
        mp->stage = PICK_FIRST;
        return mp->tt;
    case PICK_FIRST:
        picker_fill(w, ply, mp, late);
        mp->stage = mp->split ? PICK_CAPTURES : PICK_REST;
        return picker_next(w, ply, mp, late);
    case PICK_CAPTURES:
        if (mp->i < mp->n) {
            move_t m = pick_move(w, mp->list, mp->scores, mp->n, mp->i);
            /* Good captures and promotions score above 0, losing ones below every quiet move. */
            if (mp->scores[mp->i] >= 0) {
                mp->i++;
                return m;
            }
        }
        picker_add_quiets(w, ply, mp, late);
        mp->stage = PICK_REST;
        return picker_next(w, ply, mp, late);
    default:
        return mp->i < mp->n ? pick_move(w, mp->list, mp->scores, mp->n, mp->i++) : MOVE_NONE;
    }
}

/* Whether a move would give check, for a move the search may prune: without making it where that
 * can be told (position_move_checks). Not a node. */
static bool move_gives_check(struct position *pos, move_t m)
{
    int checks = position_move_checks(pos, m);
    if (checks < 0) {
        position_make(pos, m);
        checks = position_in_check_after_move(pos);
        position_unmake(pos, m);
    }
    return checks;
}

/* Makes a move and finds whether it gives check, once for the parent and the child. */
static inline bool make(struct worker *w, int ply, move_t m)
{
    w->stack[ply].move = m;
    w->stack[ply].moved = w->pos->board[move_from(m)];
    position_make(w->pos, m);
    /* The child probes the table first: its bucket loads while the check test runs. */
    if (w->armies < 3)
        tt_prefetch(w->sh->tt, position_key(w->pos));
    bool check = position_in_check_after_move(w->pos);
    w->stack[ply + 1].in_check = check;
    w->nodes++;
    atomic_store_explicit(&w->sh->thread_nodes[w->id].n, w->nodes, memory_order_relaxed);
    return check;
}

static inline void update_pv(struct worker *w, int ply, move_t m)
{
    w->pv[ply][0] = m;
    memcpy(w->pv[ply] + 1, w->pv[ply + 1], (size_t)w->pvlen[ply + 1] * sizeof(move_t));
    w->pvlen[ply] = w->pvlen[ply + 1] + 1;
}

static bool is_draw(const struct position *pos)
{
    return pos->st[pos->ply].halfmove >= 100 || position_repetitions(pos) > 0;
}

/* What the search relies on at every node, checked by test builds: a legal move led here, and the
 * in-check flag is right (with it wrong, the captures-only generator gives moves that leave the royal
 * attacked). Passes and armies leaving are no moves. */
static inline bool node_is_sound(const struct worker *w, int ply)
{
    const struct position *pos = w->pos;
    const struct state *st = &pos->st[pos->ply];
    return (st->move == MOVE_NONE || !player_in_check(pos, st->side_before))
           && w->stack[ply].in_check == position_in_check(pos);
}

/* The start of every node: limits, draws and the ply cap. True, with the score from player view's
 * side, if the node ends. */
static bool node_ends(struct worker *w, int ply, int view, int *score)
{
    assert(node_is_sound(w, ply));
    w->pvlen[ply] = 0;
    if (w->id == 0)
        search_check_limits(w);
    *score = 0;
    if (search_stopped(w) || is_draw(w->pos))
        return true;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (ply < MAX_PLY)
        return false;
    if (!w->stack[ply].in_check)
        *score = eval_position_as(w->et, w->pos, &w->sh->weights, &w->pawn_cache, &w->eval_cache, w->memo, view,
                                  -SCORE_INF, SCORE_INF);
    return true;
}

static int qsearch(struct worker *w, int alpha, int beta, int ply)
{
    struct position *pos = w->pos;
    int early;
    if (node_ends(w, ply, pos->side, &early))
        return early;
    bool in_check = w->stack[ply].in_check;
    /* Capture sequences transpose into each other all the time: the table cuts them short. */
    uint64_t key = position_key(pos);
    struct tt_hit hit;
    move_t tt_move = MOVE_NONE;
    int hit_eval = SCORE_NONE;
    if (tt_probe(w->sh->tt, key, &hit)) {
        int score = tt_score_from(hit.score, ply);
        tt_move = hit.move;
        hit_eval = hit.eval;
        if (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && score >= beta)
            || (hit.bound == BOUND_UPPER && score <= alpha))
            return score;
    }
    const int old_alpha = alpha;
    int best = -SCORE_INF, stand = SCORE_NONE;
    if (!in_check) {
        /* The table's evaluation is a full one (the main search's): no lazy early score. */
        stand = hit_eval != SCORE_NONE
                    ? hit_eval
                    : eval_position(w->et, pos, &w->sh->weights, &w->pawn_cache, &w->eval_cache, w->memo, alpha,
                                    beta);
        if (stand >= beta) {
            tt_store(w->sh->tt, key, MOVE_NONE, tt_score_to(stand, ply), 0, BOUND_LOWER, SCORE_NONE);
            return stand;
        }
        if (stand > alpha)
            alpha = stand;
        best = stand;
    }
    move_t best_move = MOVE_NONE, tried;
    int legal = 0, reached = 0;
    /* A capture on the cell the last move went to (a recapture) is never pruned by the rules below. */
    const int recapture = ply > 0 && w->stack[ply - 1].move ? move_to(w->stack[ply - 1].move) : CELL_NONE;
    struct exotic_paths late;
    struct picker mp;
    picker_init(w, &mp, tt_move, !in_check, false, false, &late);
    while ((tried = picker_next(w, ply, &mp, &late)) != MOVE_NONE) {
        move_t m = tried & ~MOVE_UNTESTED;
        /* Delta pruning: even winning the piece cannot lift the score to alpha. */
        if (!in_check && move_promo(m) < 0
            && stand + piece_value(w->et->data, pos->board[move_to(m)]) + QS_MARGIN <= alpha && !(m & MOVE_EP))
            continue;
        /* Move-count and futility pruning, as Stockfish's: past the first two captures only recaptures,
         * promotions and checks go on, and below alpha by the margin only captures that win material. */
        reached++;
        bool wins = false;  /* SEE found that the capture wins material */
        if (!in_check && move_promo(m) < 0 && move_to(m) != recapture
            && (reached > QS_MOVES || (stand + QS_MARGIN <= alpha && !(wins = see_ge(w->et->data, pos, m, 1))))
            && !move_gives_check(pos, m))
            continue;
        /* The child's bucket loads while the exchange is judged. */
        if (w->armies < 3)
            tt_prefetch(w->sh->tt, position_key_after(pos, m));
        if (!in_check && !wins && !capture_is_good(w, m))
            continue;
        if (!tried_is_legal(pos, &late, tried))
            continue;
        legal++;
        make(w, ply, m);
        int score = -qsearch(w, -beta, -alpha, ply + 1);
        position_unmake(pos, m);
        if (search_stopped(w))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(w, ply, m);
                if (score >= beta)
                    break;
            }
        }
    }
    if (in_check && !legal)
        return -SCORE_MATE + ply;
    /* No capture or promotion at all: the stand-pat score, not stored. */
    if (!mp.n)
        return best;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(w->sh->tt, key, best_move, tt_score_to(best, ply), 0, bound, SCORE_NONE);
    return best;
}

/* True when the side to move has a piece other than pawns and its royal (null-move zugzwang guard). */
static bool has_pieces(const struct position *pos)
{
    for (int t = 0; t < pos->v->ntypes; t++)
        if (!pos->v->piece[t].royal && !pos->v->piece[t].pawn && !cs_is_empty(pos_pieces(pos, pos->side, t)))
            return true;
    return false;
}

static void update_quiet_stats(struct worker *w, int ply, move_t best, const move_t *quiets, int nquiets,
                               int depth)
{
    struct stack *ss = &w->stack[ply];
    int bonus = depth * depth * HISTORY_BONUS < HISTORY_MAX / 2 ? depth * depth * HISTORY_BONUS : HISTORY_MAX / 2;
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    history_update(w, best, bonus);
    for (int i = 0; i < nquiets; i++)
        if (quiets[i] != best)
            history_update(w, quiets[i], -bonus);
    if (ply > 0 && w->stack[ply - 1].move)
        w->counter[w->stack[ply - 1].moved][move_to(w->stack[ply - 1].move)] = best;
}

/* What a node's move loop keeps: the best score and move, how many moves it searched, and the quiet
 * moves searched so far (their history falls at a cut). */
struct move_tally {
    int best, searched, nquiets;
    move_t best_move, *quiets;
};

/* A move loop's tail, once a move is searched and taken back: its score against the best and the
 * window (max_node: a higher score raises alpha; else, the multi-player search's other side, a lower
 * one lowers beta), the principal variation (with pv), and at a cut a quiet move's history. True at a
 * cut. */
static inline bool tally_move(struct worker *w, int ply, struct move_tally *t, move_t m, int score, bool quiet,
                              int depth, bool max_node, bool pv, int *alpha, int *beta)
{
    t->searched++;
    if (max_node ? score > t->best : score < t->best) {
        t->best = score;
        if (max_node ? score > *alpha : score < *beta) {
            t->best_move = m;
            if (pv)
                update_pv(w, ply, m);
            if (max_node)
                *alpha = score;
            else
                *beta = score;
            if (*alpha >= *beta) {
                if (quiet)
                    update_quiet_stats(w, ply, m, t->quiets, t->nquiets, depth);
                return true;
            }
        }
    }
    if (quiet && t->nquiets < QUIETS_MAX)
        t->quiets[t->nquiets++] = m;
    return false;
}

static int search(struct worker *w, int alpha, int beta, int depth, int ply, bool null_ok)
{
    struct position *pos = w->pos;
    struct search_shared *sh = w->sh;
    const bool pv_node = beta - alpha > 1;
    if (depth <= 0)
        return qsearch(w, alpha, beta, ply);
    int early;
    if (node_ends(w, ply, pos->side, &early))
        return early;
    bool in_check = w->stack[ply].in_check;
    /* Mate distance pruning: no line here can beat a mate already found nearer the root. */
    alpha = alpha > -SCORE_MATE + ply ? alpha : -SCORE_MATE + ply;
    beta = beta < SCORE_MATE - ply - 1 ? beta : SCORE_MATE - ply - 1;
    if (alpha >= beta)
        return alpha;

    uint64_t key = position_key(pos);
    struct tt_hit hit;
    move_t tt_move = MOVE_NONE;
    const bool found = tt_probe(sh->tt, key, &hit);
    if (found) {
        tt_move = hit.move;
        int score = tt_score_from(hit.score, ply);
        if (!pv_node && hit.depth >= depth
            && (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && score >= beta)
                || (hit.bound == BOUND_UPPER && score <= alpha)))
            return score;
    }

    /* Internal iterative reduction: a node the table knows no move for is searched a ply shallower;
     * that search leaves a move in the table for the next, deeper visit to try first. */
    if (depth >= IIR_DEPTH && !tt_move)
        depth--;
    struct stack *ss = &w->stack[ply];
    /* The table keeps the evaluation for the next visit. */
    int static_eval = SCORE_NONE;
    if (!in_check) {
        static_eval = found ? hit.eval : SCORE_NONE;
        if (static_eval == SCORE_NONE)
            static_eval = eval_position(w->et, pos, &sh->weights, &w->pawn_cache, &w->eval_cache, w->memo,
                                        -SCORE_INF, SCORE_INF);
    }
    /* Stored at once, as the shortcuts below may return before the node's own entry is written. */
    if (!found && static_eval != SCORE_NONE)
        tt_store(sh->tt, key, MOVE_NONE, SCORE_NONE, -1, BOUND_NONE, static_eval);
    /* A shallower search's score is the better guess where its bound says the value lies beyond the
     * static evaluation. */
    int eval = static_eval;
    if (static_eval != SCORE_NONE && found) {
        int score = tt_score_from(hit.score, ply);
        if (abs(score) < SCORE_MATE_BOUND && (hit.bound & (score > static_eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = score;
    }
    /* Improving: the evaluation rose since this side's last move (unknown counts as rising). Reverse
     * futility then trusts it a ply sooner; where it fell, late quiet moves are reduced a ply more. */
    ss->eval = static_eval;
    const int before = ply >= 2 ? w->stack[ply - 2].eval : SCORE_NONE;
    const bool improving = !in_check && (before == SCORE_NONE || static_eval > before);
    w->stack[ply + 2].killers[0] = w->stack[ply + 2].killers[1] = MOVE_NONE;
    /* Neither shortcut below may hide a mate (beta a mate bound) or, where stalemate is not a draw, a
     * stalemate: a side left with pawns and its royal may have no move at all. */
    if (!pv_node && !in_check && beta > -SCORE_MATE_BOUND && beta < SCORE_MATE_BOUND) {
        const bool pieces = has_pieces(pos);
        const bool stalemate_drawn = pos->v->stalemate_num * 2 == pos->v->stalemate_den;
        /* Reverse futility: far above beta, a shallow search will not fall back. */
        if (depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta && (pieces || stalemate_drawn))
            return eval;
        /* Null move, not where zugzwang is likely (only pawns and the royal left). */
        if (null_ok && depth >= NMP_DEPTH && eval >= beta && pieces) {
            int r = NMP_REDUCTION + depth / NMP_REDUCTION_DIVISOR;
            ss->move = MOVE_NONE;
            ss->moved = 0;
            w->stack[ply + 1].in_check = false;
            position_make_null(pos);
            int score = -search(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            position_unmake_null(pos);
            if (search_stopped(w))
                return 0;
            if (score >= beta)
                return score >= SCORE_MATE_BOUND ? beta : score;
        }
    }

    move_t quiets[QUIETS_MAX], tried;
    struct exotic_paths late;
    struct picker mp;
    picker_init(w, &mp, tt_move, false, !in_check, true, &late);
    struct move_tally t = { -SCORE_INF, 0, 0, MOVE_NONE, quiets };
    int legal = 0;
    const int old_alpha = alpha;
    const bool futile = !pv_node && !in_check && depth <= FUTILITY_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha;
    while ((tried = picker_next(w, ply, &mp, &late)) != MOVE_NONE) {
        move_t m = tried & ~MOVE_UNTESTED;
        bool quiet = is_quiet(pos, m);
        if (t.best > -SCORE_MATE_BOUND && quiet && !pv_node && !in_check) {
            /* Late move pruning and futility pruning of quiet moves at shallow depth. */
            if ((t.searched >= LMP_BASE + depth * depth || futile) && !move_gives_check(pos, m))
                continue;
        }
        /* SEE pruning at shallow depth: a move that loses more material than a few plies can win back.
         * A fusion (onto an own piece) is no exchange. */
        if (t.best > -SCORE_MATE_BOUND && depth <= SEE_PRUNE_DEPTH
            && (quiet ? !pos->board[move_to(m)] : is_capture(pos, m))
            && !see_ge(w->et->data, pos, m, -SEE_PRUNE_MARGIN * depth))
            continue;
        /* The moves pruned above come after one that was searched: a node with no legal move gets here. */
        if (!tried_is_legal(pos, &late, tried))
            continue;
        legal++;
        int hist = quiet ? history_of(w, m) : 0;
        bool gives_check = make(w, ply, m);
        /* Check extension, at most doubling the iteration's depth along a line. */
        int ext = gives_check && ply < w->root_depth ? 1 : 0;
        int new_depth = depth - 1 + ext, score;
        if (t.searched == 0) {
            score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        } else {
            /* Late move reductions for quiet moves that the ordering put late. */
            int r = 0;
            if (depth >= LMR_DEPTH && quiet && !in_check && !gives_check) {
                r = reductions[depth < 64 ? depth : 63][t.searched < 64 ? t.searched : 63];
                r += !pv_node + !improving;
                r -= hist > 0 ? 1 : 0;
                r = r < 0 ? 0 : r > new_depth - 1 ? new_depth - 1 : r;
            }
            score = -search(w, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, true);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        }
        position_unmake(pos, m);
        if (search_stopped(w))
            return 0;
        if (tally_move(w, ply, &t, m, score, quiet, depth, true, pv_node, &alpha, &beta))
            break;
    }
    if (!legal)
        return in_check ? -SCORE_MATE + ply : stalemate_score(w, ply);
    int bound = t.best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(sh->tt, key, t.best_move, tt_score_to(t.best, ply), depth, bound, static_eval);
    return t.best;
}

static int root_compare(const void *a, const void *b)
{
    const struct root_move *x = a, *y = b;
    return x->score != y->score ? (y->score > x->score ? 1 : -1) : (y->prev_score > x->prev_score) - (y->prev_score < x->prev_score);
}

static void report(struct worker *w, int depth, int multipv, const struct root_move *rm, int bound)
{
    struct search_shared *sh = w->sh;
    struct search_report r = {
        .depth = depth,
        .seldepth = rm->seldepth,
        .multipv = multipv,
        .armies = w->armies,
        .score = rm->score,
        .bound = bound,
        .nodes = search_total_nodes(sh),
        .time_ms = clock_ms() - sh->start_ms,
        .hashfull = tt_hashfull(sh->tt),
        .pvlen = rm->pvlen,
    };
    memcpy(r.pv, rm->pv, (size_t)rm->pvlen * sizeof(move_t));
    sh->report(sh->report_ctx, &r);
}

/* The three-player search below a root move (engine/width/search_multi.c). */
static int multi_root(struct worker *w, int alpha, int beta, int depth);
/* The table key of the position a root move leads to, in the three-player search. */
static uint64_t multi_root_key(const struct worker *w);

/* A root move's score: the three-player search while three armies are on the board. */
static int root_child(struct worker *w, int alpha, int beta, int depth)
{
    return w->armies > 2 ? multi_root(w, alpha, beta, depth) : -search(w, -beta, -alpha, depth, 1, true);
}

/* One root search of the moves from pv_index on, within the window. */
static int search_root(struct worker *w, int alpha, int beta, int depth)
{
    struct position *pos = w->pos;
    int best = -SCORE_INF;
    for (int i = w->pv_index; i < w->nroot; i++) {
        struct root_move *rm = &w->root[i];
        w->root_index = i;
        w->seldepth = 0;
        int ext = make(w, 0, rm->move) ? 1 : 0, score;
        if (i == w->pv_index) {
            score = root_child(w, alpha, beta, depth - 1 + ext);
        } else {
            score = root_child(w, alpha, alpha + 1, depth - 1 + ext);
            if (score > alpha && score < beta)
                score = root_child(w, alpha, beta, depth - 1 + ext);
        }
        position_unmake(pos, rm->move);
        if (search_stopped(w))
            return best;
        if (i == w->pv_index || score > alpha) {
            rm->score = score;
            rm->seldepth = w->seldepth;
            rm->pv[0] = rm->move;
            memcpy(rm->pv + 1, w->pv[1], (size_t)w->pvlen[1] * sizeof(move_t));
            rm->pvlen = w->pvlen[1] + 1;
        } else {
            rm->score = -SCORE_INF;
        }
        if (score > best)
            best = score;
        if (score > alpha) {
            alpha = score;
            if (score >= beta)
                break;
        }
    }
    return best;
}

/* go mate N: N of the mover's own moves, every army on the board moving in between. */
static bool mate_found(const struct worker *w, int score)
{
    return w->sh->limits.mate && score >= SCORE_MATE - w->armies * w->sh->limits.mate;
}

/* A root line's score: this iteration's, or, for a move it did not reach, the last iteration's. */
static int root_score(const struct root_move *rm)
{
    return rm->score > -SCORE_INF ? rm->score : rm->prev_score;
}

/* The line played: the best, or for a weakened search (UCI_LimitStrength) one of its lines picked
 * by engine/skill.c. */
static int worker_pick(const struct worker *w, int n)
{
    int scores[MAX_MULTIPV];
    if (!w->sh->limits.elo || n < 2)
        return 0;
    for (int i = 0; i < n; i++)
        scores[i] = root_score(&w->root[i]);
    return skill_pick(scores, n, skill_level(w->sh->limits.elo), &w->sh->skill_seed);
}

/* A line of an iteration the stop cut short, as Stockfish shows it: at that depth if the iteration
 * reached its move, at the depth before otherwise; a move never scored (stopped at once) shows 0. */
static void report_partial(struct worker *w, int multipv, const struct root_move *rm)
{
    struct root_move shown = *rm;
    bool reached = rm->score > -SCORE_INF;
    shown.score = root_score(rm) > -SCORE_INF ? root_score(rm) : 0;
    if (!shown.pvlen) {
        shown.pv[0] = rm->move;
        shown.pvlen = 1;
    }
    int depth = reached || w->root_depth < 2 ? w->root_depth : w->root_depth - 1;
    report(w, depth > 0 ? depth : 1, multipv, &shown, BOUND_EXACT);
}

/* A line of the root move alone (a fail high the stop cut short before its re-search, whose line
 * ends at the root) gets the table's move for the reply, if it is legal there: bestmove then names a
 * ponder move, as Stockfish's does. */
static void root_line_extend(struct worker *w, struct root_move *rm)
{
    if (rm->pvlen > 1)
        return;
    struct position *pos = w->pos;
    enum turn_end end;
    struct tt_hit hit;
    move_t list[MAX_MOVES];
    position_make(pos, rm->move);
    int removed = position_resolve(pos, &end);
    /* The three-player search keys its entries apart, until two armies are left. */
    const uint64_t key = w->armies > 2 && armies_left(pos) > 2 ? multi_root_key(w) : position_key(pos);
    if (end == TURN_PLAYS && tt_probe(w->sh->tt, key, &hit) && hit.move) {
        int n = movegen_legal(pos, list);
        for (int i = 0; i < n; i++)
            if (list[i] == hit.move) {
                rm->pv[0] = rm->move;
                rm->pv[1] = hit.move;
                rm->pvlen = 2;
                break;
            }
    }
    position_unresolve(pos, removed);
    position_unmake(pos, rm->move);
}

/* The main worker's last lines: those of an iteration cut short, so that the line of the move played
 * always comes before bestmove (multipv 1, the last line with one line), then, for a weakened search
 * that plays another line, that line again, last. */
static void report_final(struct worker *w, bool interrupted, int multipv)
{
    if (!w->nroot)
        return;
    w->played = worker_pick(w, multipv);
    /* The line played is one of these. */
    for (int k = 0; k < multipv; k++)
        root_line_extend(w, &w->root[k]);
    if (interrupted)
        for (int k = 0; k < multipv; k++)
            report_partial(w, k + 1, &w->root[k]);
    if (w->played != 0)
        report_partial(w, w->played + 1, &w->root[w->played]);
}

/* Iterative deepening with aspiration windows; the main worker reports and decides when to stop. */
static void worker_search(struct worker *w, const struct position *root, struct search_shared *sh, int id)
{
    struct position *pos = w->pos;
    position_copy(pos, root);
    w->sh = sh;
    w->id = id;
    w->nodes = 0;
    w->completed_depth = 0;
    w->root_depth = w->root_index = w->played = 0;
    w->next_progress_ms = sh->start_ms + PROGRESS_EVERY_MS;
    memset(w->stack, 0, sizeof w->stack);
    pawn_cache_clear(&w->pawn_cache);
    eval_cache_clear(&w->eval_cache);
    memo_clear(w->memo);
    w->stack[0].in_check = position_in_check(pos);
    w->stack[0].eval = SCORE_NONE;
    w->armies = armies_left(pos);
    w->root_player = pos->side;
    move_t list[MAX_MOVES];
    /* A three-player game down to its last army is over. */
    int n = w->armies > 1 ? movegen_legal(pos, list) : 0;
    w->nroot = 0;
    for (int i = 0; i < n; i++) {
        bool wanted = !sh->limits.nsearchmoves;
        for (int k = 0; k < sh->limits.nsearchmoves; k++)
            wanted |= sh->limits.searchmoves[k] == list[i];
        if (wanted)
            w->root[w->nroot++] = (struct root_move){ .move = list[i], .score = -SCORE_INF, .prev_score = -SCORE_INF };
    }
    if (!w->nroot)
        return;
    int multipv = sh->multipv < w->nroot ? sh->multipv : w->nroot;
    /* Helpers keep going past the depth limit until the main thread stops them: their table
     * entries are what speeds the main thread up. */
    int max_depth = sh->limits.depth && id == 0 ? sh->limits.depth : MAX_PLY - 1;
    bool interrupted = false;
    /* Helper threads start one ply deeper every other thread, so they spread over depths. */
    for (int depth = 1 + (id & 1); depth <= max_depth; depth++) {
        w->root_depth = depth;
        /* Unsearched moves sort by the last iteration's scores, so a stopped iteration keeps its best. */
        for (int i = 0; i < w->nroot; i++) {
            w->root[i].prev_score = w->root[i].score;
            w->root[i].score = -SCORE_INF;
        }
        for (w->pv_index = 0; w->pv_index < multipv; w->pv_index++) {
            struct root_move *first = &w->root[w->pv_index];
            int prev = first->prev_score, delta = ASPIRATION_DELTA, alpha = -SCORE_INF, beta = SCORE_INF;
            if (depth >= ASPIRATION_DEPTH && prev > -SCORE_MATE_BOUND && prev < SCORE_MATE_BOUND) {
                alpha = prev - delta;
                beta = prev + delta;
            }
            for (;;) {
                int score = search_root(w, alpha, beta, depth);
                qsort(w->root + w->pv_index, (size_t)(w->nroot - w->pv_index), sizeof *w->root, root_compare);
                if (search_stopped(w))
                    break;
                int bound = score <= alpha ? BOUND_UPPER : score >= beta ? BOUND_LOWER : BOUND_EXACT;
                if (bound == BOUND_EXACT)
                    break;
                if (id == 0 && clock_ms() - sh->start_ms > BOUND_LINES_AFTER_MS)
                    report(w, depth, w->pv_index + 1, &w->root[w->pv_index], bound);
                if (bound == BOUND_UPPER) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
                } else {
                    beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
                }
                delta += delta / 2;
            }
            if (search_stopped(w))
                break;
            /* A later line may score above an earlier one: keep the lines in order. */
            for (int k = w->pv_index; k > 0 && w->root[k].score > w->root[k - 1].score; k--) {
                struct root_move t = w->root[k];
                w->root[k] = w->root[k - 1];
                w->root[k - 1] = t;
            }
        }
        if (search_stopped(w)) {
            interrupted = true;
            break;
        }
        w->completed_depth = depth;
        if (id != 0)
            continue;
        for (int k = 0; k < multipv; k++)
            report(w, depth, k + 1, &w->root[k], BOUND_EXACT);
        int64_t elapsed = clock_ms() - sh->start_ms;
        bool stop = mate_found(w, w->root[0].score) || (sh->soft_ms && !atomic_load(&sh->pondering) && elapsed >= sh->soft_ms);
        if (stop && !atomic_load(&sh->pondering) && !sh->limits.infinite)
            break;
    }
    if (id == 0)
        report_final(w, interrupted, multipv);
}

static move_t worker_best(const struct worker *w, move_t *ponder, int *depth)
{
    if (!w->nroot)
        return MOVE_NONE;
    const struct root_move *rm = &w->root[w->played];
    *ponder = rm->pvlen > 1 ? rm->pv[1] : MOVE_NONE;
    *depth = w->completed_depth;
    return rm->move;
}
