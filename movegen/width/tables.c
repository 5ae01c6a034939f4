/* Builds struct tables from a variant (included by engine/width/instance.c, once per width). */
#include <stdlib.h>
#include <string.h>

#include "../tables.h"

static int step_cell(const struct geometry *g, int cell, struct vec v, int times)
{
    return geo_cell(g, g->q[cell] + times * v.q, g->r[cell] + times * v.r);
}

static bool vec_up(struct vec v)
{
    return v.q > 0 || (v.q == 0 && v.r > 0);
}

static unsigned turn_straight(unsigned mask, int sixths)
{
    unsigned out = 0;
    for (int d = 0; d < NUM_STRAIGHT; d++)
        if (mask & (1u << d))
            out |= 1u << ((d / 6) * 6 + (d % 6 + sixths) % 6);
    return out;
}

/* Root-7 directions are ordered by angle, two per sixth of a turn. */
static unsigned turn_root7(unsigned mask, int sixths)
{
    unsigned out = 0;
    for (int d = 0; d < NUM_ROOT7; d++)
        if (mask & (1u << d))
            out |= 1u << ((d + 2 * sixths) % NUM_ROOT7);
    return out;
}

static cellset *between_at(const struct tables *tb, int a, int b)
{
    return &tb->between[a * tb->ncells + b];
}

static void tables_lines(struct tables *tb)
{
    const struct geometry *g = &tb->v->geo;
    for (int d = 0; d < NUM_STRAIGHT + NUM_ROOT7; d++) {
        bool straight = d < NUM_STRAIGHT;
        struct vec v = straight ? geo_straight(d) : geo_root7[d - NUM_STRAIGHT];
        if (vec_up(v)) {
            if (straight)
                tb->straight_up |= 1u << d;
            else
                tb->root7_up |= 1u << (d - NUM_STRAIGHT);
        }
        for (int c = 0; c < tb->ncells; c++) {
            cellset line = cs_empty();
            for (int k = 1;; k++) {
                int t = step_cell(g, c, v, k);
                if (t == CELL_NONE)
                    break;
                *between_at(tb, c, t) = line;
                cs_set(&line, t);
            }
            if (straight)
                tb->ray[c][d] = line;
            else
                tb->ride[c][d - NUM_STRAIGHT] = line;
        }
    }
}

/* Straight axes: each pairs a direction toward higher cell indices with its opposite. */
static const int axis_up[6] = { 0, 4, 5, 9, 10, 11 }, axis_down[6] = { 3, 1, 2, 6, 7, 8 };

static struct line_dirs split_dirs(unsigned dirs, unsigned up, bool axes)
{
    struct line_dirs ld = { 0, 0, 0 };
    for (int a = 0; axes && a < 6; a++) {
        unsigned pair = (1u << axis_up[a]) | (1u << axis_down[a]);
        if ((dirs & pair) == pair) {
            ld.axes |= 1u << a;
            dirs &= ~pair;
        }
    }
    ld.up = dirs & up;
    ld.down = dirs & ~up;
    return ld;
}

static void tables_piece(struct tables *tb, int pl, int t)
{
    const struct variant *v = tb->v;
    const struct geometry *g = &v->geo;
    const struct piece_def *pd = &v->piece[t];
    struct piece_tables *pt = &tb->pt[pl][t];
    int rot = v->rotation[pl];
    for (int m = 1; m < 4; m++) {
        pt->slide[m] = turn_straight(pd->slide[m], rot);
        pt->ride[m] = turn_root7(pd->ride[m], rot);
        pt->slides[m] = split_dirs(pt->slide[m], tb->straight_up, true);
        pt->rides[m] = split_dirs(pt->ride[m], tb->root7_up, false);
        if (pt->slide[m] | pt->ride[m])
            pt->gen |= 1u << (4 + m);
    }
    for (int m = 1; m < 4; m++) {
        pt->curved[m] = turn_straight(pd->curved[m], rot);
        if (pt->curved[m])
            pt->gen |= 1u << (8 + m);
    }
    memcpy(pt->curved_steps, pd->curved_steps, sizeof pt->curved_steps);
    for (int m = 1; m < 4; m++)
        for (int k = 0; k < PATH_KINDS; k++) {
            pt->path[m][k] = turn_straight(pd->path[k][m], rot);
            if (pt->path[m][k])
                pt->gen |= GEN_PATH;
        }
    pt->hop = turn_straight(pd->hop, rot);
    for (int u = 0; u < v->ntypes; u++)
        if (v->fuse[t][u])
            pt->partners |= 1u << u;
    if (pt->hop)
        pt->gen |= GEN_HOP;
    unsigned sc = pt->slide[MODE_CAPTURE] | pt->slide[MODE_BOTH];
    unsigned rc = pt->ride[MODE_CAPTURE] | pt->ride[MODE_BOTH];
    pt->slide_from = turn_straight(sc, 3);
    pt->ride_from = turn_root7(rc, 3);
    for (int i = 0; i < pd->nleaps; i++) {
        const struct leap *l = &pd->leaps[i];
        struct vec u = geo_rotate((struct vec){ l->dq, l->dr }, rot);
        bool may_double = false;
        for (int d = 0; d < 6; d++)
            may_double |= geo_orth[d].q == l->dq && geo_orth[d].r == l->dr && (pd->double_dirs >> d & 1);
        for (int c = 0; c < g->ncells; c++) {
            int to = step_cell(g, c, u, 1);
            int steps = variant_double_steps(v, pl, t, c);
            if (to == CELL_NONE || (pd->centreward && abs(g->q[to]) > abs(g->q[c])) || (l->start && !steps))
                continue;
            cs_set(&pt->leap[l->mode][c], to);
            pt->gen |= 1u << l->mode;
            if (l->mode & MODE_CAPTURE)
                cs_set(&pt->leap_from[to], c);
            for (int k = 2; pd->double_step && (l->mode & MODE_MOVE) && may_double && k <= steps; k++) {
                struct double_step *ds = &pt->dbl[c];
                int target = step_cell(g, c, u, k);
                if (target == CELL_NONE)
                    break;
                ds->mid[ds->n] = (unsigned char)to;
                ds->far[ds->n] = (unsigned char)(k == 3 ? step_cell(g, c, u, 2) : CELL_NONE);
                ds->to[ds->n] = (unsigned char)target;
                ds->n++;
            }
        }
    }
    if (!pd->pawn)
        return;
    for (int c = 0; c < g->ncells; c++) {
        cellset moves = cs_or(pt->leap[MODE_MOVE][c], pt->leap[MODE_BOTH][c]);
        if (cs_is_empty(moves))
            cs_set(&pt->promo_zone, c);
    }
}

static int group_lines(struct line_group *groups, const uint32_t *types_by_dir, const cellset (*lines)[NUM_STRAIGHT],
                       int ncells)
{
    int n = 0;
    for (int d = 0; d < NUM_STRAIGHT; d++) {
        if (!types_by_dir[d])
            continue;
        int g = 0;
        while (g < n && groups[g].types != types_by_dir[d])
            g++;
        if (g == n) {
            groups[n].dirs = 0;
            groups[n++].types = types_by_dir[d];
        }
        groups[g].dirs |= 1u << d;
        for (int c = 0; c < ncells; c++)
            groups[g].reach[c] = cs_or(groups[g].reach[c], lines[c][d]);
    }
    return n;
}

/* Curved paths are reversible: the path from a cell back to an attacker is a curved path of the
 * other turn sense. Walking it k + 1 steps from start direction e, the attacker's own first step
 * was e + k*sense + 180 degrees; it must be one of the group's directions. */
static bool curved_back_ok(unsigned dirs, int e, int sense, int k)
{
    int base = e < DIR_DIAG ? DIR_ORTH : DIR_DIAG;
    int first = base + ((e - base + (sense ? -k : k) + 3) % 6 + 6) % 6;
    return dirs >> first & 1;
}

static void curved_group_reach(const struct tables *tb, struct curved_group *cg)
{
    for (int c = 0; c < tb->ncells; c++)
        for (int e = 0; e < NUM_STRAIGHT; e++)
            for (int s = 0; s < 2; s++) {
                const struct curved_ray *cr = &tb->curved[c][e][s];
                int n = cr->len < cg->steps[e >= DIR_DIAG] ? cr->len : cg->steps[e >= DIR_DIAG];
                for (int k = 0; k < n; k++)
                    cs_set(&cg->reach[c], cr->cell[k]);
            }
}

static void tables_curved_groups(struct tables *tb, int pl)
{
    struct attack_groups *ag = &tb->attack[pl];
    for (int t = 0; t < tb->v->ntypes; t++) {
        const struct piece_tables *pt = &tb->pt[pl][t];
        unsigned dirs = pt->curved[MODE_CAPTURE] | pt->curved[MODE_BOTH];
        if (!dirs)
            continue;
        int g = 0;
        while (g < ag->ncurved && (ag->curved[g].dirs != dirs || memcmp(ag->curved[g].steps, pt->curved_steps, 2)))
            g++;
        if (g == ag->ncurved) {
            struct curved_group *cg = &ag->curved[ag->ncurved++];
            cg->dirs = dirs;
            memcpy(cg->steps, pt->curved_steps, 2);
            curved_group_reach(tb, cg);
        }
        ag->curved[g].types |= 1u << t;
    }
}

/* Path groups: types with the same capturing path directions share their reach and zone. */
static bool tables_path_groups(struct tables *tb, int pl)
{
    struct attack_groups *ag = &tb->attack[pl];
    for (int t = 0; t < tb->v->ntypes; t++) {
        const struct piece_tables *pt = &tb->pt[pl][t];
        unsigned dirs[PATH_KINDS], any = 0;
        for (int k = 0; k < PATH_KINDS; k++)
            any |= dirs[k] = pt->path[MODE_CAPTURE][k] | pt->path[MODE_BOTH][k];
        if (!any)
            continue;
        int g = 0;
        while (g < ag->npath && memcmp(ag->path[g].dirs, dirs, sizeof dirs))
            g++;
        struct path_group *pg = &ag->path[g];
        if (g == ag->npath) {
            ag->npath++;
            memcpy(pg->dirs, dirs, sizeof dirs);
            pg->reach = calloc((size_t)tb->ncells, sizeof *pg->reach);
            pg->zone = calloc((size_t)tb->ncells, sizeof *pg->zone);
            if (!pg->reach || !pg->zone)
                return false;
            for (int c = 0; c < tb->ncells; c++)
                for (uint32_t i = tb->path_back_at[c * tb->ncells]; i < tb->path_back_at[(c + 1) * tb->ncells]; i++) {
                    const struct path_move *pm = &tb->paths_back[i];
                    if (!(dirs[pm->kind] >> pm->dir & 1))
                        continue;
                    cs_set(&pg->reach[c], pm->from);
                    pg->zone[c] = cs_or(pg->zone[c], cs_or(pm->passed, tb->bit[pm->from]));
                }
        }
        pg->types |= 1u << t;
    }
    return true;
}

static bool tables_attack_groups(struct tables *tb, int pl)
{
    struct attack_groups *ag = &tb->attack[pl];
    uint32_t slide_types[NUM_STRAIGHT] = { 0 }, ride_types[NUM_ROOT7] = { 0 }, hop_types[NUM_STRAIGHT] = { 0 };
    for (int t = 0; t < tb->v->ntypes; t++) {
        const struct piece_tables *pt = &tb->pt[pl][t];
        if (pt->gen & (GEN_LEAP_CAPTURE | GEN_LEAP_BOTH))
            ag->leap_type[ag->nleap++] = (unsigned char)t;
        for (int d = 0; d < NUM_STRAIGHT; d++)
            if (pt->slide_from & (1u << d))
                slide_types[d] |= 1u << t;
        for (int d = 0; d < NUM_ROOT7; d++)
            if (pt->ride_from & (1u << d))
                ride_types[d] |= 1u << t;
        unsigned hop_from = turn_straight(pt->hop, 3);
        for (int d = 0; d < NUM_STRAIGHT; d++)
            if (hop_from & (1u << d))
                hop_types[d] |= 1u << t;
    }
    ag->nslide = group_lines(ag->slide, slide_types, tb->ray, tb->ncells);
    ag->nride = group_lines(ag->ride, ride_types, tb->ride, tb->ncells);
    ag->nhop = group_lines(ag->hop, hop_types, tb->ray, tb->ncells);
    tables_curved_groups(tb, pl);
    return tables_path_groups(tb, pl);
}

/* Whether the type leaps onto cells from the same cells for every army. */
static bool leaps_alike(const struct tables *tb, int t)
{
    for (int pl = 0; pl < tb->v->nplayers; pl++) {
        const struct attack_groups *ag = &tb->attack[pl];
        if (!memchr(ag->leap_type, t, (size_t)ag->nleap)
            || memcmp(tb->pt[pl][t].leap_from, tb->pt[0][t].leap_from, (size_t)tb->ncells * sizeof(cellset)))
            return false;
    }
    return true;
}

/* The curved paths back from a cell along which the group's pieces capture, and from where. */
static void tables_exchange_curved(struct tables *tb, int pl, const struct curved_group *g)
{
    struct exchange_tables *xt = &tb->exchange;
    xt->curved_types |= g->types;
    for (int c = 0; c < tb->ncells; c++)
        xt->curved_reach[c] = cs_or(xt->curved_reach[c], g->reach[c]);
    for (int slot = 0; slot < 2 * NUM_STRAIGHT; slot++) {
        int e = slot / 2, s = slot % 2;
        if (!(g->dirs & (e < DIR_DIAG ? 0x3fu : 0xfc0u)))
            continue;
        for (int k = 0; k < g->steps[e >= DIR_DIAG] && k < CURVED_MAX_STEPS; k++)
            for (uint32_t types = curved_back_ok(g->dirs, e, s, k) ? g->types : 0; types; types &= types - 1) {
                int piece = piece_make(pl, __builtin_ctz(types));
                xt->curved_fit[piece][slot] |= (unsigned char)(1u << k);
                xt->curved_slots[piece] |= 1u << slot;
            }
    }
}

/* struct exchange_tables, from the armies' attack groups. */
static bool tables_exchange(struct tables *tb)
{
    struct exchange_tables *xt = &tb->exchange;
    int n = tb->ncells;
    xt->line_of = calloc((size_t)n * (size_t)n, 1);
    xt->line_reach = calloc((size_t)tb->v->ntypes * (size_t)n, sizeof *xt->line_reach);
    if (!xt->line_of || !xt->line_reach)
        return false;
    xt->up = tb->straight_up | tb->root7_up << NUM_STRAIGHT;
    for (int t = 0; t < tb->v->ntypes; t++)
        if (leaps_alike(tb, t))
            xt->leap[xt->nleap++] = (struct exchange_leap){ tb->pt[0][t].leap_from, t, -1 };
    xt->nleap_alike = xt->nleap;
    for (int pl = 0; pl < tb->v->nplayers; pl++) {
        const struct attack_groups *ag = &tb->attack[pl];
        for (int i = 0; i < ag->nleap; i++)
            if (!leaps_alike(tb, ag->leap_type[i]))
                xt->leap[xt->nleap++] = (struct exchange_leap){ tb->pt[pl][ag->leap_type[i]].leap_from,
                                                                ag->leap_type[i], pl };
        for (int i = 0; i < ag->nslide; i++)
            for (uint32_t types = ag->slide[i].types; types; types &= types - 1)
                xt->line_dirs[piece_make(pl, __builtin_ctz(types))] |= ag->slide[i].dirs;
        for (int i = 0; i < ag->nride; i++)
            for (uint32_t types = ag->ride[i].types; types; types &= types - 1)
                xt->line_dirs[piece_make(pl, __builtin_ctz(types))] |= ag->ride[i].dirs << NUM_STRAIGHT;
        for (int i = 0; i < ag->ncurved; i++)
            tables_exchange_curved(tb, pl, &ag->curved[i]);
        xt->exotic |= ag->npath || ag->nhop;
    }
    for (int c = 0; c < n; c++)
        for (int d = 0; d < EXCHANGE_LINES; d++) {
            cellset line = d < NUM_STRAIGHT ? tb->ray[c][d] : tb->ride[c][d - NUM_STRAIGHT];
            int t;
            CS_FOR_EACH(t, line)
                xt->line_of[c * n + t] = (unsigned char)(d + 1);
            for (int piece = 0; piece < EXCHANGE_PIECES; piece++)
                if (xt->line_dirs[piece] >> d & 1) {
                    xt->line_types |= 1u << piece_type(piece);
                    cellset *reach = &xt->line_reach[piece_type(piece) * n + c];
                    *reach = cs_or(*reach, line);
                }
        }
    return true;
}

static void tables_curved(struct tables *tb)
{
    const struct geometry *g = &tb->v->geo;
    int cells[CURVED_MAX_STEPS];
    for (int c = 0; c < tb->ncells; c++)
        for (int d = 0; d < NUM_STRAIGHT; d++)
            for (int s = 0; s < 2; s++) {
                struct curved_ray *cr = &tb->curved[c][d][s];
                cr->len = (unsigned char)geo_curved_path(g, c, d, s ? -1 : 1, cells);
                cellset path = cs_empty();
                for (int k = 0; k < cr->len; k++) {
                    cr->cell[k] = (unsigned char)cells[k];
                    cs_set(&path, cells[k]);
                    cr->prefix[k] = path;
                    tb->curved_link[c * tb->ncells + cells[k]] |= 1u << (2 * d + s);
                }
                /* The whole path stands in for the prefixes past its end (curved_targets counts them). */
                for (int k = cr->len; k < CURVED_MAX_STEPS; k++)
                    cr->prefix[k] = path;
            }
}

/* Splits a cell's moves of one kind and first direction into r (struct path_range), their chains'
 * cells, targets and cells looked at going to tb's chain tables from *at on (without fill, only
 * counted). False when the moves are not of that shape: a bug in the geometry, not input. */
static bool tables_path_range(struct tables *tb, const struct geo_path *moves, int count, struct path_range *r,
                              bool fill, uint32_t *at)
{
    const struct geo_path *longest[2] = { NULL, NULL };
    cellset root_to = cs_empty();
    bool passing = false;
    *r = (struct path_range){ .free_to = cs_empty() };
    for (int i = 0; i < count; i++) {
        const struct geo_path *m = &moves[i];
        if (!m->npassed) {
            cs_set(&r->free_to, m->to);
            continue;
        }
        if (passing && m->passed[0] != r->first)
            return false;
        passing = true;
        r->first = m->passed[0];
        if (m->npassed == 1) {
            cs_set(&root_to, m->to);
            continue;
        }
        int s = longest[0] && longest[0]->passed[1] != m->passed[1];
        if (s && longest[1] && longest[1]->passed[1] != m->passed[1])
            return false;
        if (!longest[s] || m->npassed > longest[s]->npassed)
            longest[s] = m;
    }
    for (int s = 0; s < 2 && passing; s++) {
        const struct geo_path *l = longest[s];
        if (!l && s)
            break;
        r->at[s] = *at;
        r->len[s] = (unsigned char)(l ? l->npassed - 1 : 0);
        for (int e = 0; e < r->len[s]; e++)
            cs_set(&r->cells[s], l->passed[e + 1]);
        *at += r->len[s] + 1u;
        if (!fill)
            continue;
        /* The moves of element e pass the first cell and the chain's cells up to e: they count once every
         * one of those is empty. */
        cellset gained[GEO_PATH_CELLS] = { 0 };
        for (int i = 0; l && i < count; i++) {
            const struct geo_path *m = &moves[i];
            if (m->npassed < 2 || m->passed[1] != l->passed[1])
                continue;
            if (memcmp(m->passed, l->passed, m->npassed))
                return false;
            cs_set(&gained[m->npassed - 2], m->to);
        }
        cellset *to = &tb->chain_to[r->at[s]], *seen = &tb->chain_seen[r->at[s]];
        to[0] = s ? cs_empty() : root_to;
        for (int e = 0; e < r->len[s]; e++) {
            tb->chain_cell[r->at[s] + e] = l->passed[e + 1];
            to[e + 1] = cs_or(to[e], gained[e]);
            seen[e] = cs_or(e ? seen[e - 1] : cs_empty(), tb->bit[l->passed[e + 1]]);
        }
        seen[r->len[s]] = r->cells[s];
    }
    return true;
}

/* The path moves of every kind and first direction some piece of the variant uses: forward as chains
 * by cell, and back by target. */
static bool tables_paths(struct tables *tb)
{
    const struct variant *v = tb->v;
    const struct geometry *g = &v->geo;
    unsigned used[PATH_KINDS] = { 0 }, any = 0;
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++)
            for (int m = 1; m < 4; m++)
                for (int k = 0; k < PATH_KINDS; k++)
                    any |= used[k] |= tb->pt[pl][t].path[m][k];
    if (!any)
        return true;
    tb->path_at = calloc((size_t)g->ncells, sizeof *tb->path_at);
    tb->path_back_at = calloc((size_t)g->ncells * (size_t)g->ncells + 1, sizeof *tb->path_back_at);
    if (!tb->path_at || !tb->path_back_at)
        return false;
    struct geo_path moves[GEO_PATH_MOVES];
    /* First counted, then filled; entry 0 of the chains is the empty chain of a missing side. */
    uint32_t total = 0, at = 1;
    for (int fill = 0; fill < 2; fill++) {
        if (fill) {
            tb->paths_back = calloc(total + 1, sizeof *tb->paths_back);
            tb->chain_cell = calloc(at, sizeof *tb->chain_cell);
            tb->chain_to = calloc(at, sizeof *tb->chain_to);
            tb->chain_seen = calloc(at, sizeof *tb->chain_seen);
            if (!tb->paths_back || !tb->chain_cell || !tb->chain_to || !tb->chain_seen)
                return false;
            /* Counts become the ends of each (target, start) pair's moves; filling each pair from its
             * end back leaves each at its start. */
            for (int i = 1; i <= g->ncells * g->ncells; i++)
                tb->path_back_at[i] += tb->path_back_at[i - 1];
            at = 1;
        }
        for (int c = 0; c < g->ncells; c++)
            for (int k = 0; k < PATH_KINDS; k++)
                for (int d = 0; d < NUM_STRAIGHT; d++) {
                    int count = used[k] >> d & 1 ? geo_path_moves(g, c, k, d, moves) : 0;
                    if (!tables_path_range(tb, moves, count, &tb->path_at[c][k][d], fill, &at))
                        abort(); /* paths of another shape: a bug, not input */
                    for (int i = 0; i < count; i++) {
                        uint32_t *end = &tb->path_back_at[moves[i].to * g->ncells + c];
                        if (!fill) {
                            ++*end;
                            total++;
                            continue;
                        }
                        struct path_move *pm = &tb->paths_back[--*end];
                        *pm = (struct path_move){ cs_empty(), (unsigned char)c, (unsigned char)k, (unsigned char)d };
                        for (int j = 0; j < moves[i].npassed; j++)
                            cs_set(&pm->passed, moves[i].passed[j]);
                    }
                }
    }
    return true;
}

static void tables_castling(struct tables *tb)
{
    const struct variant *v = tb->v;
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int i = 0; i < v->ncastles; i++) {
            const struct castle_rule *r = &v->castle[pl][i];
            cellset ends = cs_or(tb->bit[r->royal], tb->bit[r->rook]);
            cellset targets = cs_or(tb->bit[r->royal_to], tb->bit[r->rook_to]);
            tb->castle[pl][i].empty = cs_andnot(cs_or(*between_at(tb, r->royal, r->rook), targets), ends);
            tb->castle[pl][i].cross = *between_at(tb, r->royal, r->royal_to);
            tb->castle_touch[r->royal] |= castle_bit(pl, i);
            tb->castle_touch[r->rook] |= castle_bit(pl, i);
        }
}

static void tables_free(struct tables *tb)
{
    if (tb) {
        free(tb->between);
        free(tb->curved);
        free(tb->curved_link);
        free(tb->paths_back);
        free(tb->path_at);
        free(tb->chain_cell);
        free(tb->chain_to);
        free(tb->chain_seen);
        free(tb->path_back_at);
        free(tb->exchange.line_of);
        free(tb->exchange.line_reach);
        for (int pl = 0; pl < MAX_PLAYERS; pl++)
            for (int g = 0; g < tb->attack[pl].npath; g++) {
                free(tb->attack[pl].path[g].reach);
                free(tb->attack[pl].path[g].zone);
            }
    }
    free(tb);
}

static void tables_reach(struct tables *tb);

static struct tables *tables_new(const struct variant *v)
{
    struct tables *tb = calloc(1, sizeof *tb);
    if (!tb)
        return NULL;
    tb->v = v;
    tb->ncells = v->geo.ncells;
    for (int t = 0; t < v->ntypes; t++)
        tb->pawn_types |= (uint32_t)v->piece[t].pawn << t;
    tb->between = calloc((size_t)tb->ncells * (size_t)tb->ncells, sizeof *tb->between);
    tb->curved = calloc((size_t)tb->ncells, sizeof *tb->curved);
    tb->curved_link = calloc((size_t)tb->ncells * (size_t)tb->ncells, sizeof *tb->curved_link);
    if (!tb->between || !tb->curved || !tb->curved_link) {
        tables_free(tb);
        return NULL;
    }
    for (int c = 0; c < tb->ncells; c++) {
        tb->bit[c] = cs_bit(c);
        cs_set(&tb->all, c);
    }
    tables_lines(tb);
    tables_curved(tb);
    tables_castling(tb);
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++) {
            tables_piece(tb, pl, t);
            if (t != variant_royal_type(v, pl) && v->piece[t].army == v->army[pl])
                tb->movers[pl] |= 1u << t;
        }
    bool ok = tables_paths(tb);
    for (int pl = 0; ok && pl < v->nplayers; pl++)
        ok = tables_attack_groups(tb, pl);
    if (!ok || !tables_exchange(tb)) {
        tables_free(tb);
        return NULL;
    }
    tables_reach(tb);
    return tb;
}
