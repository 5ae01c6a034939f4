/* Static evaluation: material, piece-cell tables generated from geometry, mobility, royal safety
 * and pawn structure, blended between middlegame and endgame (included by engine/width/instance.c). */
#include <stdlib.h>
#include <string.h>

#include "../../rules/score.h"
#include "../eval.h"
#include "../eval_cache.h"
#include "../pawn_cache.h"
#include "../values.h"

/* A middlegame and an endgame sum in one integer, so that one multiplication and one addition add a
 * weight's count to both: exact while each part stays within an int, which weights of at most
 * WEIGHT_LIMIT times counts of at most a few hundred cells are far from. */
static inline int64_t eval_pack(int mg, int eg)
{
    return (int64_t)mg * ((int64_t)1 << 32) + eg;
}

static inline int eval_eg(int64_t packed)
{
    return (int32_t)(uint32_t)packed;
}

static inline int eval_mg(int64_t packed)
{
    return (int)((packed - eval_eg(packed)) >> 32);
}

/* Steps from each cell to the player's promotion zone along the pawn's moves (BFS on the empty board). */
static void eval_pawn_distance(const struct tables *tb, int pl, int t, int *dist)
{
    const struct piece_tables *pt = &tb->pt[pl][t];
    int queue[MAX_CELLS], head = 0, tail = 0;
    for (int c = 0; c < tb->ncells; c++) {
        dist[c] = -1;
        if (cs_test(pt->promo_zone, c)) {
            dist[c] = 0;
            queue[tail++] = c;
        }
    }
    /* Walk backwards: c is one step from x when x is a move target of c. */
    while (head < tail) {
        int x = queue[head++];
        for (int c = 0; c < tb->ncells; c++) {
            cellset moves = cs_or(pt->leap[MODE_MOVE][c], pt->leap[MODE_BOTH][c]);
            if (dist[c] < 0 && cs_test(moves, x)) {
                dist[c] = dist[x] + 1;
                queue[tail++] = c;
            }
        }
    }
}

/* Cells a pawn can still reach by moving. */
static cellset eval_front(const struct tables *tb, int pl, int t, int cell)
{
    const struct piece_tables *pt = &tb->pt[pl][t];
    cellset seen = cs_empty(), front = cs_or(pt->leap[MODE_MOVE][cell], pt->leap[MODE_BOTH][cell]);
    /* One step further from every newly reached cell at a time. */
    while (!cs_is_empty(front)) {
        seen = cs_or(seen, front);
        cellset next = cs_empty();
        int c;
        CS_FOR_EACH(c, front)
            next = cs_or(next, cs_or(pt->leap[MODE_MOVE][c], pt->leap[MODE_BOTH][c]));
        front = cs_andnot(next, seen);
    }
    return seen;
}

/* Cells a pawn starting on each cell could capture on, anywhere on its way. */
static void eval_pawn_takes(const struct tables *tb, const struct eval_data *ev, int pl, int t, cellset *takes)
{
    const struct piece_tables *pt = &tb->pt[pl][t];
    for (int y = 0; y < tb->ncells; y++) {
        cellset reach = cs_or(ev->front[pl][t][y], tb->bit[y]);
        int c;
        takes[y] = cs_empty();
        CS_FOR_EACH(c, reach)
            takes[y] = cs_or(takes[y], cs_or(pt->leap[MODE_CAPTURE][c], pt->leap[MODE_BOTH][c]));
    }
}

/* Cells where an enemy pawn could block or take a pawn on `cell` on its way (takes: eval_pawn_takes of
 * every player and pawn type). */
static cellset eval_passed_mask(const struct tables *tb, const struct eval_data *ev,
                                cellset (*takes)[MAX_TYPES][MAX_CELLS], int pl, int t, int cell)
{
    const struct variant *v = tb->v;
    cellset path = cs_or(ev->front[pl][t][cell], tb->bit[cell]), mask = cs_empty();
    for (int e = 0; e < v->nplayers; e++)
        for (int et = 0; e != pl && et < v->ntypes; et++) {
            if (!v->piece[et].pawn)
                continue;
            for (int y = 0; y < tb->ncells; y++)
                if (cs_intersects(cs_or(ev->front[e][et][y], tb->bit[y]), ev->front[pl][t][cell])
                    || cs_intersects(takes[e][et][y], path))
                    cs_set(&mask, y);
        }
    return mask;
}

/* A pawn type's steps as eval_blocked reads them: whether it has at most one step from every cell,
 * each such step, and whether every step adds the same offset to the cell's index, as along a file
 * (then that offset, the cells with a step and those with none). */
static void eval_steps(const struct tables *tb, struct eval_data *ev, int pl, int t)
{
    const struct piece_tables *pt = &tb->pt[pl][t];
    int shift = 0;
    bool uniform = true;
    ev->one_step[pl][t] = true;
    for (int c = 0; c < tb->ncells; c++) {
        cellset step = cs_or(pt->leap[MODE_MOVE][c], pt->leap[MODE_BOTH][c]);
        ev->step_to[pl][t][c] = CELL_NONE;
        if (cs_is_empty(step)) {
            cs_set(&ev->stuck[pl][t], c);
            continue;
        }
        ev->one_step[pl][t] &= !cs_several(step);
        int d = cs_lsb(step) - c;
        uniform &= d != 0 && d > -64 && d < 64 && (!shift || d == shift);
        shift = d;
        ev->step_to[pl][t][c] = (uint8_t)cs_lsb(step);
        cs_set(&ev->step_from[pl][t], c);
    }
    ev->step_shift[pl][t] = (int8_t)(ev->one_step[pl][t] && uniform ? shift : 0);
}

/* Piece-cell entries as weight ids: cells from the rim for pieces and the royal, steps toward
 * promotion for pawns. */
static void eval_pst(const struct tables *tb, struct eval_data *ev, int pl, int t)
{
    const struct variant *v = tb->v;
    const struct geometry *g = &v->geo;
    const struct piece_def *pd = &v->piece[t];
    int dist[MAX_CELLS], far = 0, edge = 0;
    if (pd->pawn) {
        eval_pawn_distance(tb, pl, t, dist);
        for (int c = 0; c < tb->ncells; c++)
            far = dist[c] > far ? dist[c] : far;
    }
    /* From the board's centre, not cell (0, 0): off-centre boards (Shafran's, Brusky's) stay symmetric. */
    for (int c = 0; c < tb->ncells; c++) {
        int d = geo_centre_distance(g, c);
        edge = d > edge ? d : edge;
    }
    for (int c = 0; c < tb->ncells; c++) {
        int rim = edge - geo_centre_distance(g, c);
        rim = rim < RIM_MAX ? rim : RIM_MAX - 1;
        int id = (pd->royal ? W_ROYAL_CENTRE : W_CENTRE) + rim;
        if (pd->pawn) {
            int adv = dist[c] < 0 ? 0 : far - dist[c];
            ev->advance[pl][t][c] = (int8_t)adv;
            id = W_ADVANCE + (adv < ADVANCE_MAX ? adv : ADVANCE_MAX - 1);
        }
        ev->pst_weight[pl][t][c] = (uint16_t)id;
        /* The position sums the value's middlegame part as material: its endgame part rides here. */
        int extra = pd->royal ? 0 : ev->p.w[W_VALUE + t].eg - ev->p.w[W_VALUE + t].mg;
        ev->pst[pl][t][c][0] = (int16_t)ev->p.w[id].mg;
        ev->pst[pl][t][c][1] = (int16_t)(ev->p.w[id].eg + extra);
    }
}

/* Whether a piece stays on the colour of its cell (the hex Bishop and its kin: one of three colours). */
static bool eval_colour_bound(const struct tables *tb, int t)
{
    const struct geometry *g = &tb->v->geo;
    bool moves = false;
    for (int c = 0; c < tb->ncells; c++) {
        int x;
        CS_FOR_EACH(x, tb->pt[0][t].reach[c]) {
            if (geo_colour_of(g, x) != geo_colour_of(g, c))
                return false;
            moves = true;
        }
    }
    return moves;
}

/* Types from the least valuable to the royal ones, and the types that are not royal in groups of
 * equal value: the threats pass weighs a type against the enemy attacks of the groups below its own. */
static void eval_order_by_value(const struct variant *v, struct eval_data *ev)
{
    for (int t = 0; t < v->ntypes; t++) {
        int k = t;
        for (; k > 0 && (v->piece[t].royal ? 1 << 30 : ev->value[t])
                            < (v->piece[ev->by_value[k - 1]].royal ? 1 << 30 : ev->value[ev->by_value[k - 1]]); k--)
            ev->by_value[k] = ev->by_value[k - 1];
        ev->by_value[k] = t;
    }
    for (int k = 0; k < v->ntypes && !v->piece[ev->by_value[k]].royal; k++) {
        const int t = ev->by_value[k];
        if (k == 0 || ev->value[t] != ev->value[ev->by_value[k - 1]])
            ev->ngroups++;
        ev->value_group[ev->ngroups - 1] |= 1u << t;
        ev->group_of[t] = (int8_t)(ev->ngroups - 1);
    }
}

static struct eval_data *eval_data_new(const struct tables *tb, const struct eval_params *p)
{
    const struct variant *v = tb->v;
    struct eval_data *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->p = *p;
    for (int t = 0; t < v->ntypes; t++)
        ev->value[t] = v->piece[t].royal ? 0 : p->w[W_VALUE + t].mg;
    eval_order_by_value(v, ev);
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++) {
            eval_pst(tb, ev, pl, t);
            for (int c = 0; v->piece[t].pawn && c < tb->ncells; c++)
                ev->front[pl][t][c] = eval_front(tb, pl, t, c);
            if (v->piece[t].pawn)
                eval_steps(tb, ev, pl, t);
        }
    cellset (*takes)[MAX_TYPES][MAX_CELLS] = calloc(MAX_PLAYERS, sizeof *takes);
    if (!takes) {
        free(ev);
        return NULL;
    }
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++)
            if (v->piece[t].pawn)
                eval_pawn_takes(tb, ev, pl, t, takes[pl][t]);
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++)
            for (int c = 0; v->piece[t].pawn && c < tb->ncells; c++)
                ev->passed[pl][t][c] = eval_passed_mask(tb, ev, takes, pl, t, c);
    free(takes);
    const struct geometry *g = &v->geo;
    for (int a = 0; a < tb->ncells; a++) {
        cs_set(&ev->colour[geo_colour_of(g, a)], a);
        for (int b = 0; b < tb->ncells; b++)
            if (a != b && geo_distance((struct vec){ g->q[a], g->r[a] }, (struct vec){ g->q[b], g->r[b] }) <= 2)
                cs_set(&ev->near[a], b);
    }
    /* The search skips what weighs nothing: mobility where a type's weight is 0, threats and the
     * triad while all their weights are 0. */
    for (int t = 0; t < v->ntypes; t++) {
        const struct piece_def *pd = &v->piece[t];
        const bool piece = !pd->pawn && !pd->royal;
        ev->mobile[t] = p->w[W_MOBILITY + t].mg || p->w[W_MOBILITY + t].eg;
        /* A player holds the pawn types of its own army alone. */
        for (int k = 0; pd->pawn && k < t; k++)
            ev->pawn_slot[t] += v->piece[k].pawn && v->piece[k].army == pd->army;
        ev->bound_types |= (uint32_t)(piece && eval_colour_bound(tb, t)) << t;
        ev->piece_types |= (uint32_t)piece << t;
        ev->royal_types |= (uint32_t)(pd->royal && !pd->pawn) << t;
    }
    ev->cache_pawns = true;
    for (int t = 0; t < v->ntypes; t++)
        ev->cache_pawns &= ev->pawn_slot[t] < PAWN_CACHE_TYPES;
    for (int id = 0; id < NUM_WEIGHTS; id++)
        ev->packed[id] = eval_pack(p->w[id].mg, p->w[id].eg);
    for (int id = W_THREAT; id < W_PASSED; id++)
        ev->threats |= p->w[id].mg || p->w[id].eg;
    for (int id = W_TRIAD; id < W_TRIAD + TRIAD_MAX; id++)
        ev->triad |= p->w[id].mg || p->w[id].eg;
    for (int id = W_LEADER; id < W_LEADER + MAX_TYPES; id++)
        ev->balance |= weights_applies(v, id) && (p->w[id].mg || p->w[id].eg);
    struct setup s;
    char err[256];
    if (setup_from_fen(&s, v, v->start_fen, err, sizeof err))
        for (int c = 0; c < tb->ncells; c++)
            if (s.piece[c] && !v->piece[piece_type(s.piece[c])].pawn)
                ev->start_phase += ev->value[piece_type(s.piece[c])];
    if (ev->start_phase < 1)
        ev->start_phase = 1;
    return ev;
}

/* Builds the evaluation's tables from the weights and gives positions on tb its piece values and
 * piece-cell bonuses to sum (movegen/sums.h). On failure both keep what they had. */
static bool eval_attach(struct eval_tables *et, struct tables *tb, const struct eval_params *p)
{
    struct eval_data *ev = eval_data_new(tb, p);
    if (!ev)
        return false;
    free(et->data);
    et->data = ev;
    tb->psq.value = ev->value;
    tb->psq.cell = (const int16_t (*)[MAX_TYPES][MAX_CELLS][2])ev->pst;
    tb->psq.phase_types = 0;
    for (int t = 0; t < tb->v->ntypes; t++)
        if (!tb->v->piece[t].pawn)
            tb->psq.phase_types |= 1u << t;
    return true;
}

static const struct eval_params *eval_params_of(const struct eval_tables *et)
{
    return &et->data->p;
}

/* Each army's packed sums while the terms are added; with a trace (never in the search) each weight's
 * count too. */
struct eval_sum {
    const int64_t *w;
    int64_t sum[MAX_PLAYERS];
    struct eval_trace *tr;
};

/* The evaluation's parts are always inlined into evaluate_lazy, which is itself inlined into its two
 * callers: the search's copy, compiled with no trace, tests none of the trace's conditions. */
#define EVAL_INLINE static inline __attribute__((always_inline))

EVAL_INLINE void add(struct eval_sum *s, int pl, int id, int n)
{
    s->sum[pl] += n * s->w[id];
    if (s->tr)
        s->tr->coef[pl][id] += (int16_t)n;
}

/* The counts behind the sums the position keeps (material, piece-cell tables), for a trace. */
static void eval_trace_psq(const struct position *pos, const struct eval_data *ev, struct eval_trace *tr)
{
    for (int c = 0; c < pos->tb->ncells; c++) {
        int piece = pos->board[c];
        if (!piece)
            continue;
        int pl = piece_colour(piece), t = piece_type(piece);
        tr->coef[pl][ev->pst_weight[pl][t][c]]++;
        if (!pos->v->piece[t].royal)
            tr->coef[pl][W_VALUE + t]++;
    }
}

/* What every army's pieces attack, found once per evaluation and shared by mobility, royal safety
 * and threats: the cells its pawns cover (occupied or not: all its pawns', and per pawn type, found
 * with the pawn terms), and per type the cells its pieces capture or defend on (pieces of either
 * colour; only while threats weigh something). Both are filled only for the types in `present`, by_type
 * for the royal too. */
struct eval_attacks {
    cellset pawn_cover[MAX_PLAYERS];
    cellset pawn_takes[MAX_PLAYERS][MAX_TYPES];
    cellset by_type[MAX_PLAYERS][MAX_TYPES];
    uint32_t present[MAX_PLAYERS];    /* the types an army has on the board, royal ones left out */
    bool threats;
};

/* The cells a pawn on c steps to, and (mode MODE_CAPTURE) those it captures on; both: whether the pawn
 * has leaps that move and capture (most have none: their empty table is not read). */
static inline cellset eval_pawn_leaps(const struct piece_tables *pt, int mode, int c, bool both)
{
    return both ? cs_or(pt->leap[mode][c], pt->leap[MODE_BOTH][c]) : pt->leap[mode][c];
}

/* pawns: every army's pawns. Each term that depends on the pawns alone is counted over the pawns
 * first and weighed once (blocked pawns: eval_blocked). Returns the cells these pawns could capture on
 * (their cover, occupied or not), and adds those they step to to *steps. */
EVAL_INLINE cellset eval_pawns(const struct position *pos, const struct eval_data *ev, int pl, int t, cellset pawns,
                               struct eval_sum *s, cellset *steps)
{
    cellset own = pos_pieces(pos, pl, t), cover = cs_empty(), step = cs_empty();
    cellset enemy_pawns = cs_andnot(pawns, pos->by_colour[pl]);
    const struct piece_tables *pt = &pos->tb->pt[pl][t];
    const bool both = pt->gen & GEN_LEAP_BOTH;
    /* near is symmetric: the pawns with an own pawn near are those near some own pawn. */
    cellset neighbours = cs_empty();
    int c, passed = 0, doubled = 0;
    CS_FOR_EACH(c, own) {
        if (!cs_intersects(ev->passed[pl][t][c], enemy_pawns))
            passed += ev->advance[pl][t][c];
        doubled += cs_intersects(ev->front[pl][t][c], own);
        neighbours = cs_or(neighbours, ev->near[c]);
        step = cs_or(step, eval_pawn_leaps(pt, MODE_MOVE, c, both));
        cover = cs_or(cover, eval_pawn_leaps(pt, MODE_CAPTURE, c, both));
    }
    *steps = cs_or(*steps, step);
    add(s, pl, W_PASSED + t, passed);
    add(s, pl, W_DOUBLED + t, doubled);
    add(s, pl, W_ISOLATED + t, cs_popcount(cs_andnot(own, neighbours)));
    /* Protected: an own pawn could capture onto the pawn's cell. */
    add(s, pl, W_PROTECTED + t, cs_popcount(cs_and(cover, own)));
    return cover;
}

/* Pawns that cannot step forward: every cell they move to is taken. Where every step adds the same
 * offset to the cell's index, the taken cells moved back by it are those of the blocked pawns; where
 * each pawn has one step at most, one bit tells. */
EVAL_INLINE void eval_blocked(const struct position *pos, const struct eval_data *ev, int pl, int t,
                              struct eval_sum *s)
{
    const struct piece_tables *pt = &pos->tb->pt[pl][t];
    const bool both = pt->gen & GEN_LEAP_BOTH;
    const int shift = ev->step_shift[pl][t];
    cellset own = pos_pieces(pos, pl, t), empty = cs_andnot(pos->tb->all, pos->occ);
    int c, blocked = 0;
    if (shift) {
        cellset ahead = shift > 0 ? cs_down(pos->occ, shift) : cs_up(pos->occ, -shift);
        blocked = cs_popcount(cs_and(own, cs_or(cs_and(ahead, ev->step_from[pl][t]), ev->stuck[pl][t])));
    } else if (ev->one_step[pl][t]) {
        CS_FOR_EACH(c, own) {
            const int to = ev->step_to[pl][t][c];
            blocked += to == CELL_NONE || cs_test(pos->occ, to);
        }
    } else {
        CS_FOR_EACH(c, own)
            blocked += !cs_intersects(eval_pawn_leaps(pt, MODE_MOVE, c, both), empty);
    }
    add(s, pl, W_BLOCKED + t, blocked);
}

/* An army's pawn types' capture cells and its pawn cover, from the pawn cache's slot. */
EVAL_INLINE void eval_cached_takes(const struct eval_data *ev, const struct pawn_cache_slot *cached, int pl,
                                   struct eval_attacks *at)
{
    at->pawn_cover[pl] = cs_empty();
    for (uint32_t types = at->present[pl]; types; types &= types - 1) {
        const int t = __builtin_ctz(types);
        at->pawn_takes[pl][t] = cached->takes[pl][ev->pawn_slot[t]];
        at->pawn_cover[pl] = cs_or(at->pawn_cover[pl], at->pawn_takes[pl][t]);
    }
}

/* Every army's pawn terms and pawn cover, and the pawn types it has (at->present). The terms of the
 * pawns alone come from the pawn cache when it has this structure (never with a trace, which counts
 * every weight), and the blocked pawns too while the cells the pawns step to hold the same. */
EVAL_INLINE void eval_pawn_terms(const struct position *pos, const struct eval_data *ev, struct pawn_cache *cache,
                                 cellset pawns, struct eval_sum *s, struct eval_attacks *at)
{
    const int nplayers = pos->v->nplayers;
    struct pawn_cache_slot *cached = NULL;
    uint64_t key = 0;
    if (cache && !s->tr && ev->cache_pawns) {
        key = pos->sums.pawn_key | 1;  /* 0 marks an empty slot */
        cached = &cache->slot[key & (PAWN_CACHE_SLOTS - 1)];
    }
    const bool hit = cached && cached->key == key;
    /* Most often the cells the pawns step to hold the same too: everything comes from the slot. */
    if (hit && cs_is_empty(cs_xor(cached->step_occ, cs_and(pos->occ, cached->steps)))) {
        for (int pl = 0; pl < nplayers; pl++) {
            s->sum[pl] += cached->sum[pl] + cached->blocked[pl];
            at->present[pl] = pos->tb->pawn_types & pos->types[pl];
            eval_cached_takes(ev, cached, pl, at);
        }
        return;
    }
    struct eval_sum ps = { .w = s->w, .tr = s->tr }, bs = ps;
    cellset steps = hit ? cached->steps : cs_empty();
    for (int pl = 0; pl < nplayers; pl++) {
        ps.sum[pl] = hit ? cached->sum[pl] : 0;
        at->present[pl] = pos->tb->pawn_types & pos->types[pl];
        if (hit) {
            eval_cached_takes(ev, cached, pl, at);
            continue;
        }
        at->pawn_cover[pl] = cs_empty();
        for (uint32_t types = at->present[pl]; types; types &= types - 1) {
            const int t = __builtin_ctz(types);
            at->pawn_takes[pl][t] = eval_pawns(pos, ev, pl, t, pawns, &ps, &steps);
            if (cached)
                cached->takes[pl][ev->pawn_slot[t]] = at->pawn_takes[pl][t];
            at->pawn_cover[pl] = cs_or(at->pawn_cover[pl], at->pawn_takes[pl][t]);
        }
    }
    /* The cells ahead of the pawns changed (or the structure is new): the blocked pawns are counted. */
    for (int pl = 0; pl < nplayers; pl++) {
        for (uint32_t types = at->present[pl]; types; types &= types - 1)
            eval_blocked(pos, ev, pl, __builtin_ctz(types), &bs);
        s->sum[pl] += ps.sum[pl] + bs.sum[pl];
        if (cached && !hit)
            cached->sum[pl] = ps.sum[pl];
        if (cached)
            cached->blocked[pl] = bs.sum[pl];
    }
    if (cached && !hit) {
        cached->key = key;
        cached->steps = steps;
    }
    if (cached)
        cached->step_occ = cs_and(pos->occ, steps);
}


/* A pawn that only leaps covers its capture cells whatever stands there. */
static inline bool eval_leaper(const struct piece_tables *pt)
{
    return !(pt->gen & ~(unsigned)(GEN_LEAP_MOVE | GEN_LEAP_CAPTURE | GEN_LEAP_BOTH));
}

/* The cells a type's pieces capture or defend on, walked piece by piece. */
EVAL_INLINE cellset eval_type_attacks(const struct position *pos, struct target_memo *memo,
                                      const struct piece_tables *pt, cellset pcs)
{
    cellset att = cs_empty(), quiet, caps;
    int from;
    CS_FOR_EACH(from, pcs) {
        memo_targets(pos, memo, pt, from, &quiet, &caps);
        att = cs_or(att, caps);
    }
    return att;
}

/* With threats, the attacks of every army's pawns and royal (eval_pieces adds the other types'). */
EVAL_INLINE void eval_attacks_init(const struct position *pos, struct target_memo *memo, struct eval_attacks *at)
{
    const struct variant *v = pos->v;
    for (int pl = 0; pl < v->nplayers; pl++) {
        const int royal = pos->royal[pl];
        at->by_type[pl][royal] = eval_type_attacks(pos, memo, &pos->tb->pt[pl][royal], pos_pieces(pos, pl, royal));
        for (uint32_t types = pos->tb->pawn_types & at->present[pl]; types; types &= types - 1) {
            int t = __builtin_ctz(types);
            const struct piece_tables *pt = &pos->tb->pt[pl][t];
            at->by_type[pl][t] = eval_leaper(pt) ? cs_and(at->pawn_takes[pl][t], pos->occ)
                                                 : eval_type_attacks(pos, memo, pt, pos_pieces(pos, pl, t));
        }
    }
}

/* Safe mobility of every piece (cells not attacked by an enemy pawn), the attacks they bring to the
 * enemy royals' neighbourhoods, and with threats each type's attacks. The pieces are walked in one pass
 * whatever their type (pawns and royals: the cells of those types): most armies have one or two of a
 * type, and a pass per type costs more than the piece's own work. */
EVAL_INLINE void eval_pieces(const struct position *pos, const struct eval_data *ev, struct target_memo *memo, int pl,
                             cellset pawns_royals, struct eval_sum *s, int *attack_units, struct eval_attacks *at)
{
    const struct tables *tb = pos->tb;
    const struct variant *v = pos->v;
    cellset own = pos->by_colour[pl], enemy = cs_andnot(pos->occ, own);
    cellset zone[MAX_PLAYERS], zones = cs_empty(), unsafe = cs_empty();
    for (int e = 0; e < v->nplayers; e++) {
        int k = pos_royal_cell(pos, e);
        zone[e] = e == pl || k == CELL_NONE ? cs_empty() : cs_or(ev->near[k], tb->bit[k]);
        zones = cs_or(zones, zone[e]);
        if (e != pl)
            unsafe = cs_or(unsafe, at->pawn_cover[e]);
    }
    /* An absent type adds nothing: the passes after this one read the present types only. */
    const uint32_t types = ev->piece_types & pos->types[pl];
    at->present[pl] |= types;
    for (uint32_t left = at->threats ? types : 0; left; left &= left - 1)
        at->by_type[pl][__builtin_ctz(left)] = cs_empty();
    int from;
    CS_FOR_EACH(from, cs_andnot(own, pawns_royals)) {
        const int t = piece_type(pos->board[from]);
        const bool mobile = ev->mobile[t] || s->tr;
        const struct piece_tables *pt = &tb->pt[pl][t];
        /* Without mobility or threats only attacks on the royals' neighbourhoods count: a piece
         * that could not reach one even on the empty board is skipped. */
        if (!mobile && !at->threats && !cs_intersects(pt->reach[from], zones))
            continue;
        /* Captures onto every piece: own ones are defended, for threats. */
        cellset quiet, caps;
        memo_targets(pos, memo, pt, from, &quiet, &caps);
        if (at->threats)
            at->by_type[pl][t] = cs_or(at->by_type[pl][t], caps);
        cellset reach = cs_or(quiet, cs_and(caps, enemy));
        if (mobile)
            add(s, pl, W_MOBILITY + t, cs_popcount(cs_andnot(reach, unsafe)));
        /* Most pieces attack no royal's neighbourhood: one test saves a count per army. */
        if (!cs_intersects(reach, zones))
            continue;
        for (int e = 0; e < v->nplayers; e++)
            attack_units[e] += cs_popcount(cs_and(reach, zone[e]));
    }
}

EVAL_INLINE void eval_royal(const struct position *pos, const struct eval_data *ev, int pl, int units, cellset pawns,
                            struct eval_sum *s)
{
    int k = pos_royal_cell(pos, pl);
    if (k == CELL_NONE)
        return;
    cellset guards = cs_and(cs_and(ev->near[k], pos->by_colour[pl]), pos->tb->pt[pl][pos->royal[pl]].leap[MODE_BOTH][k]);
    add(s, pl, W_SHIELD, cs_popcount(guards));
    add(s, pl, W_SHELTER, cs_popcount(cs_and(guards, pawns)));
    add(s, pl, W_SAFETY + (units < SAFETY_MAX ? units : SAFETY_MAX - 1), 1);
}

/* Pieces attacked by a less valuable enemy piece, and pieces attacked and not defended. */
EVAL_INLINE void eval_threats(const struct position *pos, const struct eval_data *ev, const struct eval_attacks *at,
                              struct eval_sum *s)
{
    const struct variant *v = pos->v;
    /* Each army's attacks by the value groups below each group, and by all its pieces. */
    cellset below[MAX_PLAYERS][MAX_TYPES], all[MAX_PLAYERS];
    for (int pl = 0; pl < v->nplayers; pl++) {
        cellset att = cs_empty();
        for (int g = 0; g < ev->ngroups; g++) {
            below[pl][g] = att;
            for (uint32_t types = ev->value_group[g] & at->present[pl]; types; types &= types - 1)
                att = cs_or(att, at->by_type[pl][__builtin_ctz(types)]);
        }
        all[pl] = cs_or(att, at->by_type[pl][pos->royal[pl]]);
    }
    for (int pl = 0; pl < v->nplayers; pl++) {
        /* The enemies as pl's next players in turn. A loop over every player skipping pl was computed
         * wrongly with 256-bit sets by GCC 12 at -O3 (it took another army's attacks; right at -O1,
         * no uninitialised read under valgrind; found by the bench signature). */
        int enemy[MAX_PLAYERS - 1];
        for (int k = 1; k < v->nplayers; k++)
            enemy[k - 1] = pl + k < v->nplayers ? pl + k : pl + k - v->nplayers;
        cellset by_enemy = cs_empty();
        for (int k = 0; k < v->nplayers - 1; k++)
            by_enemy = cs_or(by_enemy, all[enemy[k]]);
        /* Only attacked pieces can be threatened or hanging: few, so they are walked one by one. */
        cellset attacked = cs_andnot(cs_and(pos->by_colour[pl], by_enemy), pos->by_type[pos->royal[pl]]);
        cellset undefended = cs_andnot(attacked, all[pl]);
        int c;
        CS_FOR_EACH(c, attacked) {
            const int t = piece_type(pos->board[c]), g = ev->group_of[t];
            cellset cheaper = cs_empty();
            for (int k = 0; k < v->nplayers - 1; k++)
                cheaper = cs_or(cheaper, below[enemy[k]][g]);
            if (cs_test(cheaper, c))
                add(s, pl, W_THREAT + t, 1);
            if (cs_test(undefended, c))
                add(s, pl, W_HANGING + t, 1);
        }
    }
}

/* Colour-bound types: how many of the three cell colours the player's pieces of each cover. */
EVAL_INLINE void eval_triad(const struct position *pos, const struct eval_data *ev, int pl, struct eval_sum *s)
{
    for (uint32_t types = ev->bound_types & pos->types[pl]; types; types &= types - 1) {
        const int t = __builtin_ctz(types);
        cellset mine = pos_pieces(pos, pl, t);
        int covered = 0;
        for (int k = 0; k < 3; k++)
            covered += cs_intersects(mine, ev->colour[k]);
        add(s, pl, W_TRIAD + covered, 1);
    }
}

/* Three or four players: the mover's pieces of each type less the leader's (the opponent ahead in
 * material; with different armies, each army's own types). The material term sets the mover against
 * the mean of its opponents; with this one the fit can weigh the balance against the leader on its
 * own. Only while at least two opponents are on the board. */
EVAL_INLINE void eval_balance(const struct position *pos, int view, struct eval_sum *s)
{
    const struct variant *v = pos->v;
    int leader = -1, opponents = 0;
    /* Equal material: the opponent who moves first after the mover leads. */
    for (int k = 1; k < v->nplayers; k++) {
        int pl = (view + k) % v->nplayers;
        if (pos_royal_cell(pos, pl) == CELL_NONE)
            continue;
        opponents++;
        if (leader < 0 || pos->sums.material[pl] > pos->sums.material[leader])
            leader = pl;
    }
    if (opponents < 2)
        return;
    for (int t = 0; t < v->ntypes; t++)
        if (!v->piece[t].royal)
            add(s, view, W_LEADER + t, cs_popcount(pos_pieces(pos, view, t)) - cs_popcount(pos_pieces(pos, leader, t)));
}

/* An army's sums blended by phase. */
static inline int eval_phased(int64_t sum, int phase)
{
    return (eval_mg(sum) * phase + eval_eg(sum) * (256 - phase)) / 256;
}

/* Blends each army's sums by phase into player view's score against the average opponent. */
static int eval_blend(const struct position *pos, const struct eval_sum *s, int view, int phase)
{
    const struct variant *v = pos->v;
    int others = 0, opponents = 0;
    /* Eliminated armies (three players) are no opponents any more. */
    for (int pl = 0; pl < v->nplayers; pl++)
        if (pl != view && pos_royal_cell(pos, pl) != CELL_NONE) {
            others += eval_phased(s->sum[pl], phase);
            opponents++;
        }
    return eval_phased(s->sum[view], phase) - (opponents ? others / opponents : 0);
}

/* Lazy evaluation: when material, piece-cell tables and pawns already put the score this far outside
 * (alpha, beta), the rest is not worth computing. */
static inline bool eval_is_lazy(int early, int margin, int alpha, int beta)
{
    return early - margin >= beta || early + margin <= alpha;
}

/* The evaluation from player view's side (the three-player search scores every node for its root
 * player); with a trace, each weight's count per army. Lazy (never with a trace): the early score
 * (also left in *early) alone when it is far outside (alpha, beta). cache (or NULL) keeps
 * the terms of pawn structures met before, memo (or NULL) the pieces' targets (memo_targets). */
EVAL_INLINE int evaluate_lazy(const struct eval_data *ev, const struct position *pos,
                              const struct eval_weights *settings, struct pawn_cache *cache, struct target_memo *memo,
                              int view, struct eval_trace *tr, int alpha, int beta, int *early)
{
    const struct variant *v = pos->v;
    struct eval_sum s = { .w = ev->packed, .tr = tr };
    if (settings->material_only) {
        int others = 0, opponents = 0;
        for (int pl = 0; pl < v->nplayers; pl++)
            if (pl != view && pos_royal_cell(pos, pl) != CELL_NONE) {
                others += pos->sums.material[pl];
                opponents++;
            }
        int total = pos->sums.material[view] - (opponents ? others / opponents : 0);
        if (tr) {
            memset(tr, 0, sizeof *tr);
            tr->material_only = true;
            tr->total = total;
        }
        *early = total;
        return total;
    }
    if (tr) {
        memset(tr, 0, sizeof *tr);
        eval_trace_psq(pos, ev, tr);
    }
    cellset pawns = cs_empty();
    for (uint32_t types = pos->tb->pawn_types; types; types &= types - 1)
        pawns = cs_or(pawns, pos->by_type[__builtin_ctz(types)]);
    struct eval_attacks at;
    for (int pl = 0; pl < v->nplayers; pl++) {
        const int material = pos->sums.material[pl];
        s.sum[pl] = eval_pack(material + pos->sums.pst[pl][0], material + pos->sums.pst[pl][1]);
    }
    eval_pawn_terms(pos, ev, cache, pawns, &s, &at);
    if (view == pos->side)
        add(&s, view, W_TEMPO, 1);
    if (ev->balance || tr)
        eval_balance(pos, view, &s);
    int phase = pos->sums.phase_material * 256 / ev->start_phase;
    phase = phase > 256 ? 256 : phase;
    *early = eval_blend(pos, &s, view, phase);
    if (!tr && eval_is_lazy(*early, ev->p.lazy_margin, alpha, beta))
        return *early;
    int units[MAX_PLAYERS] = { 0 };
    at.threats = ev->threats || tr;
    if (at.threats)
        eval_attacks_init(pos, memo, &at);
    cellset pawns_royals = pawns;
    for (uint32_t types = ev->royal_types; types; types &= types - 1)
        pawns_royals = cs_or(pawns_royals, pos->by_type[__builtin_ctz(types)]);
    for (int pl = 0; pl < v->nplayers; pl++)
        eval_pieces(pos, ev, memo, pl, pawns_royals, &s, units, &at);
    for (int pl = 0; pl < v->nplayers; pl++) {
        eval_royal(pos, ev, pl, units[pl], pawns, &s);
        if (ev->triad || tr)
            eval_triad(pos, ev, pl, &s);
    }
    if (at.threats)
        eval_threats(pos, ev, &at, &s);
    int total = eval_blend(pos, &s, view, phase);
    if (tr) {
        tr->phase = phase;
        tr->view = view;
        tr->total = total;
        for (int pl = 0; pl < v->nplayers; pl++)
            tr->counted[pl] = pl != view && pos_royal_cell(pos, pl) != CELL_NONE;
    }
    return total;
}

/* The full evaluation for the side to move; with a trace (the eval command, the tuner) every weight's
 * count. */
static int evaluate_full(const struct eval_data *ev, const struct position *pos, const struct eval_weights *settings,
                         struct eval_trace *tr)
{
    int early;
    return evaluate_lazy(ev, pos, settings, NULL, NULL, pos->side, tr, -SCORE_INF, SCORE_INF, &early);
}

/* The search's evaluation, lazy in its window; cache, scores and memo: the thread's pawn cache,
 * evaluation cache and target memo. A score met again is the one computed then: the early score
 * where it is lazy in this window, else the full one if that was computed. */
static int evaluate_as(const struct eval_data *ev, const struct position *pos, const struct eval_weights *settings,
                       struct pawn_cache *cache, struct eval_cache *scores, struct target_memo *memo, int view,
                       int alpha, int beta)
{
    const uint64_t key = (position_key(pos) ^ (uint64_t)view * 0x9e3779b97f4a7c15u) | 1;
    struct eval_cache_slot *slot = &scores->slot[key & (EVAL_CACHE_SLOTS - 1)];
    if (slot->key == key) {
        if (eval_is_lazy(slot->early, ev->p.lazy_margin, alpha, beta))
            return slot->early;
        if (slot->full)
            return slot->total;
    }
    int early, total = evaluate_lazy(ev, pos, settings, cache, memo, view, NULL, alpha, beta, &early);
    *slot = (struct eval_cache_slot){ key, early, total, !eval_is_lazy(early, ev->p.lazy_margin, alpha, beta) };
    return total;
}
