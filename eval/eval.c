/* Static evaluation: material, piece-cell tables generated from geometry, mobility, royal safety
 * and pawn structure, blended between middlegame and endgame (included by engine/instance.c). */
#include <stdlib.h>
#include <string.h>

#include "../engine/score.h"
#include "eval.h"
#include "values.h"

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
    cellset seen = cs_empty(), todo = cs_or(pt->leap[MODE_MOVE][cell], pt->leap[MODE_BOTH][cell]);
    while (!cs_is_empty(todo)) {
        int c = cs_pop_lsb(&todo);
        if (cs_test(seen, c))
            continue;
        cs_set(&seen, c);
        todo = cs_or(todo, cs_andnot(cs_or(pt->leap[MODE_MOVE][c], pt->leap[MODE_BOTH][c]), seen));
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

static void eval_pst(const struct tables *tb, const struct eval_weights *w, struct eval_data *ev, int pl, int t)
{
    const struct variant *v = tb->v;
    const struct geometry *g = &v->geo;
    const struct piece_def *pd = &v->piece[t];
    int dist[MAX_CELLS], far = 0;
    if (pd->pawn) {
        eval_pawn_distance(tb, pl, t, dist);
        for (int c = 0; c < tb->ncells; c++)
            far = dist[c] > far ? dist[c] : far;
    }
    for (int c = 0; c < tb->ncells; c++) {
        int rim = g->radius - geo_distance((struct vec){ g->q[c], g->r[c] }, (struct vec){ 0, 0 });
        int mg, eg;
        if (pd->pawn) {
            int adv = dist[c] < 0 ? 0 : far - dist[c];
            ev->advance[pl][t][c] = (int8_t)adv;
            mg = adv * adv * w->advance.mg / 4;
            eg = adv * adv * w->advance.eg / 4;
        } else if (pd->royal) {
            mg = rim * w->royal_centre.mg;
            eg = rim * w->royal_centre.eg;
        } else {
            mg = rim * w->centre.mg;
            eg = rim * w->centre.eg;
        }
        ev->pst[pl][t][c][0] = (int16_t)mg;
        ev->pst[pl][t][c][1] = (int16_t)eg;
    }
}

/* Every cell a piece could move or capture to from the cell if the board were empty; a hopper's
 * captures lie on its hopping lines. */
static cellset eval_empty_reach(const struct tables *tb, const struct piece_tables *pt, int cell)
{
    cellset quiet, caps, reach;
    piece_targets(tb, pt, cell, cs_empty(), tb->all, tb->all, &quiet, &caps);
    reach = cs_or(quiet, caps);
    for (unsigned dirs = pt->hop; dirs; dirs &= dirs - 1)
        reach = cs_or(reach, tb->ray[cell][__builtin_ctz(dirs)]);
    return reach;
}

static struct eval_data *eval_data_new(const struct tables *tb, const struct eval_weights *w)
{
    const struct variant *v = tb->v;
    struct eval_data *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    values_of(v, w, ev->value);
    for (int t = 0; t < v->ntypes; t++) {
        int k = t;
        for (; k > 0 && (t == variant_royal_type(v) ? 1 << 30 : ev->value[t])
                            < (ev->by_value[k - 1] == variant_royal_type(v) ? 1 << 30 : ev->value[ev->by_value[k - 1]]); k--)
            ev->by_value[k] = ev->by_value[k - 1];
        ev->by_value[k] = t;
    }
    for (int t = 0; t < v->ntypes; t++) {
        double leaps, lines;
        values_mobility(v, t, &leaps, &lines);
        /* A real position blocks about half of what the empty board offers. */
        ev->mobility16[t] = (int)(8 * (leaps + lines));
    }
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++) {
            eval_pst(tb, w, ev, pl, t);
            for (int c = 0; v->piece[t].pawn && c < tb->ncells; c++)
                ev->front[pl][t][c] = eval_front(tb, pl, t, c);
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
            for (int c = 0; c < tb->ncells; c++) {
                if (v->piece[t].pawn)
                    ev->passed[pl][t][c] = eval_passed_mask(tb, ev, takes, pl, t, c);
                ev->reach[pl][t][c] = eval_empty_reach(tb, &tb->pt[pl][t], c);
            }
    free(takes);
    const struct geometry *g = &v->geo;
    for (int a = 0; a < tb->ncells; a++)
        for (int b = 0; b < tb->ncells; b++)
            if (a != b && geo_distance((struct vec){ g->q[a], g->r[a] }, (struct vec){ g->q[b], g->r[b] }) <= 2)
                cs_set(&ev->near[a], b);
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

/* Builds the evaluation's tables from the weights and lets positions keep material and piece-cell
 * sums (tables.h). */
static bool eval_attach(struct tables *tb, const struct eval_weights *w)
{
    struct eval_data *ev = eval_data_new(tb, w);
    if (!ev)
        return false;
    ((struct evaluated_tables *)tb)->eval = ev;
    tb->psq_value = ev->value;
    tb->psq_cell = (const int16_t (*)[MAX_TYPES][MAX_CELLS][2])ev->pst;
    tb->phase_types = 0;
    for (int t = 0; t < tb->v->ntypes; t++)
        if (!tb->v->piece[t].pawn)
            tb->phase_types |= 1u << t;
    return true;
}

static inline void add(struct eval_trace *tr, int pl, int term, int mg, int eg)
{
    tr->term[pl][term][0] += mg;
    tr->term[pl][term][1] += eg;
}

static void eval_pawns(const struct position *pos, const struct eval_data *ev, const struct eval_weights *w, int pl,
                       int t, struct eval_trace *tr)
{
    cellset own = pos_pieces(pos, pl, t), enemy_pawns = cs_empty();
    for (int e = 0; e < pos->v->nplayers; e++)
        for (int et = 0; e != pl && et < pos->v->ntypes; et++)
            if (pos->v->piece[et].pawn)
                enemy_pawns = cs_or(enemy_pawns, pos_pieces(pos, e, et));
    const struct piece_tables *pt = &pos->tb->pt[pl][t];
    int c;
    CS_FOR_EACH(c, own) {
        int adv = ev->advance[pl][t][c];
        if (!cs_intersects(ev->passed[pl][t][c], enemy_pawns))
            add(tr, pl, TERM_PAWNS, adv * w->passed.mg, adv * w->passed.eg);
        if (cs_intersects(ev->front[pl][t][c], own))
            add(tr, pl, TERM_PAWNS, w->doubled.mg, w->doubled.eg);
        if (!cs_intersects(ev->near[c], own))
            add(tr, pl, TERM_PAWNS, w->isolated.mg, w->isolated.eg);
        /* Protected: an own pawn could capture onto this cell. */
        if (cs_intersects(pt->leap_from[c], own))
            add(tr, pl, TERM_PAWNS, w->protected_pawn.mg, w->protected_pawn.eg);
    }
}

/* Mobility of every piece, and the attacks they bring to the enemy royals' neighbourhoods. */
static void eval_pieces(const struct position *pos, const struct eval_data *ev, const struct eval_weights *w, int pl,
                        struct eval_trace *tr, int *attack_units)
{
    const struct tables *tb = pos->tb;
    const struct variant *v = pos->v;
    cellset own = pos->by_colour[pl], occ = pos->occ;
    cellset enemy = cs_andnot(occ, own), empty = cs_andnot(tb->all, occ);
    cellset zone[MAX_PLAYERS];
    for (int e = 0; e < v->nplayers; e++) {
        int k = pos_royal_cell(pos, e);
        zone[e] = e == pl || k == CELL_NONE ? cs_empty() : cs_or(ev->near[k], tb->bit[k]);
    }
    /* With no weight on mobility only attacks on the royals' neighbourhoods count, so a piece that
     * could not reach one even on the empty board is skipped. */
    const bool mobility_counts = w->mobility.mg || w->mobility.eg;
    cellset zones = cs_empty();
    for (int e = 0; e < v->nplayers; e++)
        zones = cs_or(zones, zone[e]);
    int mobility = 0;
    for (int t = 0; t < v->ntypes; t++) {
        if (v->piece[t].pawn || t == pos->royal)
            continue;
        const struct piece_tables *pt = &tb->pt[pl][t];
        int from;
        CS_FOR_EACH(from, pos_pieces(pos, pl, t)) {
            if (!mobility_counts && !cs_intersects(ev->reach[pl][t][from], zones))
                continue;
            cellset quiet, caps;
            piece_targets(tb, pt, from, occ, empty, enemy, &quiet, &caps);
            cellset reach = cs_or(quiet, caps);
            mobility += cs_popcount(reach) * 16 - ev->mobility16[t];
            for (int e = 0; e < v->nplayers; e++)
                attack_units[e] += cs_popcount(cs_and(reach, zone[e]));
        }
    }
    add(tr, pl, TERM_MOBILITY, mobility * w->mobility.mg / 16, mobility * w->mobility.eg / 16);
}

static void eval_royal(const struct position *pos, const struct eval_data *ev, const struct eval_weights *w, int pl,
                       int units, struct eval_trace *tr)
{
    int k = pos_royal_cell(pos, pl);
    if (k == CELL_NONE)
        return;
    int shield = cs_popcount(cs_and(cs_and(ev->near[k], pos->by_colour[pl]), pos->tb->pt[pl][pos->royal].leap[MODE_BOTH][k]));
    units = units < 24 ? units : 24;
    add(tr, pl, TERM_ROYAL, shield * w->shield - units * units * w->attack_unit / 16, 0);
}

/* Blends every term by phase into player view's score against the average opponent; the tempo
 * bonus belongs to the side to move. */
static int eval_blend(const struct position *pos, const struct eval_weights *w, int view, struct eval_trace *tr)
{
    const struct variant *v = pos->v;
    int score[MAX_PLAYERS] = { 0 }, others = 0;
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int term = 0; term < NUM_TERMS; term++)
            score[pl] += (tr->term[pl][term][0] * tr->phase + tr->term[pl][term][1] * (256 - tr->phase)) / 256;
    /* Eliminated armies (three players) are no opponents any more. */
    int opponents = 0;
    for (int pl = 0; pl < v->nplayers; pl++)
        if (pl != view && pos_royal_cell(pos, pl) != CELL_NONE) {
            others += score[pl];
            opponents++;
        }
    tr->total = score[view] - (opponents ? others / opponents : 0) + (tr->material_only || view != pos->side ? 0 : w->tempo);
    return tr->total;
}

/* The evaluation with the weights from player view's side (the three-player search scores every node
 * for its root player), with every term in the trace. Lazy: when material, piece-cell tables and pawns
 * already put the score far outside (alpha, beta), mobility and royal safety are not worth computing. */
static int evaluate_lazy(const struct position *pos, const struct eval_weights *w, int view, struct eval_trace *tr,
                         int alpha, int beta)
{
    const struct eval_data *ev = eval_tables(pos->tb);
    const struct variant *v = pos->v;
    memset(tr, 0, sizeof *tr);
    tr->material_only = w->material_only;
    int units[MAX_PLAYERS] = { 0 };
    for (int pl = 0; pl < v->nplayers; pl++) {
        add(tr, pl, TERM_MATERIAL, pos->material[pl], pos->material[pl]);
        if (tr->material_only)
            continue;
        add(tr, pl, TERM_PST, pos->pst[pl][0], pos->pst[pl][1]);
        for (int t = 0; t < v->ntypes; t++)
            if (v->piece[t].pawn && !cs_is_empty(pos_pieces(pos, pl, t)))
                eval_pawns(pos, ev, w, pl, t, tr);
    }
    int phase = pos->phase_material * 256 / ev->start_phase;
    tr->phase = phase > 256 ? 256 : phase;
    int early = eval_blend(pos, w, view, tr), margin = w->lazy_margin;
    if (tr->material_only || early - margin >= beta || early + margin <= alpha)
        return early;
    for (int pl = 0; pl < v->nplayers; pl++)
        eval_pieces(pos, ev, w, pl, tr, units);
    for (int pl = 0; pl < v->nplayers; pl++)
        eval_royal(pos, ev, w, pl, units[pl], tr);
    return eval_blend(pos, w, view, tr);
}

static int evaluate_full(const struct position *pos, const struct eval_weights *w, struct eval_trace *tr)
{
    return evaluate_lazy(pos, w, pos->side, tr, -SCORE_INF, SCORE_INF);
}

static int evaluate_as(const struct position *pos, const struct eval_weights *w, int view, int alpha, int beta)
{
    struct eval_trace tr;
    return evaluate_lazy(pos, w, view, &tr, alpha, beta);
}

static int evaluate(const struct position *pos, const struct eval_weights *w, int alpha, int beta)
{
    return evaluate_as(pos, w, pos->side, alpha, beta);
}
