#include "reference.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct ref_move {
    int from, to;
    int promo;   /* type the pawn becomes, or -1 */
    int victim;  /* cell of the pawn taken en passant, or CELL_NONE */
    int passed;  /* cell a double step passes over, or CELL_NONE */
};

struct ref_list {
    int n;
    struct ref_move m[REFERENCE_MAX_MOVES];
};

static void ref_add(struct ref_list *l, struct ref_move m)
{
    if (l->n == REFERENCE_MAX_MOVES)
        abort();
    l->m[l->n++] = m;
}

static struct ref_move ref_simple(int from, int to)
{
    return (struct ref_move){ from, to, -1, CELL_NONE, CELL_NONE };
}

/* The cell one vector away, or CELL_NONE off the board. */
static int ref_step(const struct variant *v, int cell, struct vec d)
{
    return geo_cell(&v->geo, v->geo.q[cell] + d.q, v->geo.r[cell] + d.r);
}

/* A vector of a piece definition as the player sees it. */
static struct vec ref_turn(const struct variant *v, int player, struct vec d)
{
    return geo_rotate(d, v->rotation[player]);
}

static struct vec ref_leap_vec(const struct variant *v, int player, const struct leap *lp)
{
    return ref_turn(v, player, (struct vec){ lp->dq, lp->dr });
}

/* Whether a piece of the colour may end a move of this mode on the cell. */
static bool ref_may_land(const struct setup *s, int colour, int cell, unsigned mode)
{
    int p = s->piece[cell];
    if (!p)
        return mode & MODE_MOVE;
    return piece_colour(p) != colour && (mode & MODE_CAPTURE);
}

/* Repeats the vector through empty cells; may end on the first piece met. */
static void ref_line(const struct variant *v, const struct setup *s, int from, struct vec d, unsigned mode,
                     struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]);
    for (int to = ref_step(v, from, d); to != CELL_NONE; to = ref_step(v, to, d)) {
        if (ref_may_land(s, colour, to, mode))
            ref_add(l, ref_simple(from, to));
        if (s->piece[to])
            break;
    }
}

/* Leaps, slides and rides of the piece on the cell, without any pawn rule. */
static void ref_basic(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]);
    const struct piece_def *d = &v->piece[piece_type(s->piece[from])];
    for (int i = 0; i < d->nleaps; i++) {
        int to = ref_step(v, from, ref_leap_vec(v, colour, &d->leaps[i]));
        if (to != CELL_NONE && ref_may_land(s, colour, to, d->leaps[i].mode))
            ref_add(l, ref_simple(from, to));
    }
    for (unsigned mode = MODE_MOVE; mode <= MODE_BOTH; mode++)
        for (int dir = 0; dir < NUM_STRAIGHT; dir++) {
            if (d->slide[mode] >> dir & 1)
                ref_line(v, s, from, ref_turn(v, colour, geo_straight(dir)), mode, l);
            if (d->ride[mode] >> dir & 1)
                ref_line(v, s, from, ref_turn(v, colour, geo_root7[dir]), mode, l);
        }
}

/* The cell holds a piece of the colour: could a piece of any other colour capture it? */
static bool ref_attacked(const struct variant *v, const struct setup *s, int cell, int colour)
{
    struct ref_list l;
    for (int from = 0; from < v->geo.ncells; from++) {
        if (!s->piece[from] || piece_colour(s->piece[from]) == colour)
            continue;
        l.n = 0;
        ref_basic(v, s, from, &l);
        for (int i = 0; i < l.n; i++)
            if (l.m[i].to == cell)
                return true;
    }
    return false;
}

bool reference_in_check(const struct variant *v, const struct setup *s, int player)
{
    for (int c = 0; c < v->geo.ncells; c++) {
        int p = s->piece[c];
        if (p && piece_colour(p) == player && v->piece[piece_type(p)].royal && ref_attacked(v, s, c, player))
            return true;
    }
    return false;
}

bool reference_in_zone(const struct variant *v, int player, int type, int cell)
{
    const struct piece_def *d = &v->piece[type];
    for (int i = 0; i < d->nleaps; i++)
        if ((d->leaps[i].mode & MODE_MOVE) && ref_step(v, cell, ref_leap_vec(v, player, &d->leaps[i])) != CELL_NONE)
            return false;
    return true;
}

static bool ref_unit(struct vec u)
{
    return geo_distance((struct vec){ 0, 0 }, u) == 1;
}

/* The pawn of the previous player whose double step passed over the en-passant cell. */
static int ref_ep_victim(const struct variant *v, const struct setup *s)
{
    int prev = (s->side + v->nplayers - 1) % v->nplayers;
    for (int t = 0; t < v->ntypes; t++) {
        const struct piece_def *d = &v->piece[t];
        if (!d->en_passant)
            continue;
        for (int i = 0; i < d->nleaps; i++) {
            struct vec u = ref_leap_vec(v, prev, &d->leaps[i]);
            if (!(d->leaps[i].mode & MODE_MOVE) || !ref_unit(u))
                continue;
            int c = ref_step(v, s->ep, u);
            if (c != CELL_NONE && s->piece[c] == piece_make(prev, t))
                return c;
        }
    }
    return CELL_NONE;
}

static void ref_double_steps(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]);
    const struct piece_def *d = &v->piece[piece_type(s->piece[from])];
    if (!d->double_step || !v->double_cell[colour][from])
        return;
    for (int i = 0; i < d->nleaps; i++) {
        struct vec u = ref_leap_vec(v, colour, &d->leaps[i]);
        if (!(d->leaps[i].mode & MODE_MOVE) || !ref_unit(u))
            continue;
        int mid = ref_step(v, from, u);
        int to = mid == CELL_NONE ? CELL_NONE : ref_step(v, mid, u);
        /* Only a piece that can be taken en passant leaves the passed cell behind. */
        if (to != CELL_NONE && !s->piece[mid] && !s->piece[to])
            ref_add(l, (struct ref_move){ from, to, -1, CELL_NONE, d->en_passant ? mid : CELL_NONE });
    }
}

static void ref_en_passant(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]);
    const struct piece_def *d = &v->piece[piece_type(s->piece[from])];
    if (!d->en_passant || s->ep == CELL_NONE)
        return;
    int victim = ref_ep_victim(v, s);
    bool reaches = false;
    for (int i = 0; i < d->nleaps; i++)
        if ((d->leaps[i].mode & MODE_CAPTURE) && ref_step(v, from, ref_leap_vec(v, colour, &d->leaps[i])) == s->ep)
            reaches = true;
    /* En passant is taken by a piece of the same kind only. */
    if (victim == CELL_NONE || !reaches || piece_type(s->piece[victim]) != piece_type(s->piece[from]))
        return;
    /* Where the pawn could also move to the passed cell, that move is the capture (pieces.md). */
    for (int i = 0; i < l->n; i++)
        if (l->m[i].to == s->ep) {
            l->m[i].victim = victim;
            return;
        }
    ref_add(l, (struct ref_move){ from, s->ep, -1, victim, CELL_NONE });
}

/* Copies one piece's moves; a pawn's moves ending in its zone become one per promotion type. */
static void ref_promote(const struct variant *v, const struct setup *s, const struct ref_list *moves,
                        struct ref_list *l)
{
    for (int i = 0; i < moves->n; i++) {
        struct ref_move m = moves->m[i];
        int p = s->piece[m.from];
        if (!v->piece[piece_type(p)].pawn || !reference_in_zone(v, piece_colour(p), piece_type(p), m.to)) {
            ref_add(l, m);
            continue;
        }
        for (int k = 0; k < v->npromo; k++) {
            m.promo = v->promo[k];
            ref_add(l, m);
        }
    }
}

static bool ref_has_target(const struct ref_list *l, int to)
{
    for (int i = 0; i < l->n; i++)
        if (l->m[i].to == to)
            return true;
    return false;
}

/* One piece's moves: a target reached by two atoms (a Sailor's W and R) is one move. */
static void ref_piece_moves(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    struct ref_list basic, moves;
    basic.n = moves.n = 0;
    ref_basic(v, s, from, &basic);
    for (int i = 0; i < basic.n; i++)
        if (!ref_has_target(&moves, basic.m[i].to))
            ref_add(&moves, basic.m[i]);
    if (v->piece[piece_type(s->piece[from])].pawn) {
        ref_double_steps(v, s, from, &moves);
        ref_en_passant(v, s, from, &moves);
    }
    ref_promote(v, s, &moves, l);
}

static void ref_pseudo(const struct variant *v, const struct setup *s, struct ref_list *l)
{
    l->n = 0;
    for (int from = 0; from < v->geo.ncells; from++)
        if (s->piece[from] && piece_colour(s->piece[from]) == s->side)
            ref_piece_moves(v, s, from, l);
}

static void ref_apply(const struct variant *v, struct setup *s, struct ref_move m)
{
    int p = s->piece[m.from];
    bool capture = s->piece[m.to] || m.victim != CELL_NONE;
    if (m.victim != CELL_NONE)
        s->piece[m.victim] = 0;
    s->piece[m.to] = (unsigned char)(m.promo >= 0 ? piece_make(piece_colour(p), m.promo) : p);
    s->piece[m.from] = 0;
    s->halfmove = capture || v->piece[piece_type(p)].pawn ? 0 : s->halfmove + 1;
    s->ep = m.passed;
    int next = (s->side + 1) % v->nplayers;
    if (next < s->side)
        s->fullmove++;
    s->side = next;
}

static void ref_legal(const struct variant *v, const struct setup *s, struct ref_list *l)
{
    ref_pseudo(v, s, l);
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        struct setup after = *s;
        ref_apply(v, &after, l->m[i]);
        if (!reference_in_check(v, &after, s->side))
            l->m[n++] = l->m[i];
    }
    l->n = n;
}

static void ref_text(const struct variant *v, struct ref_move m, char *out)
{
    strcpy(out, v->geo.name[m.from]);
    strcat(out, v->geo.name[m.to]);
    if (m.promo >= 0) {
        size_t n = strlen(out);
        out[n] = (char)tolower((unsigned char)v->piece[m.promo].letter);
        out[n + 1] = 0;
    }
}

static int ref_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

int reference_moves(const struct variant *v, const struct setup *s, char out[][REFERENCE_TEXT_LEN])
{
    struct ref_list l;
    ref_legal(v, s, &l);
    for (int i = 0; i < l.n; i++)
        ref_text(v, l.m[i], out[i]);
    qsort(out, (size_t)l.n, sizeof *out, ref_cmp);
    return l.n;
}

bool reference_make(const struct variant *v, struct setup *s, const char *text)
{
    struct ref_list l;
    ref_legal(v, s, &l);
    for (int i = 0; i < l.n; i++) {
        char have[REFERENCE_TEXT_LEN];
        ref_text(v, l.m[i], have);
        if (!strcmp(have, text)) {
            ref_apply(v, s, l.m[i]);
            return true;
        }
    }
    return false;
}

uint64_t reference_perft(const struct variant *v, const struct setup *s, int depth)
{
    if (depth == 0)
        return 1;
    struct ref_list l;
    ref_legal(v, s, &l);
    if (depth == 1)
        return (uint64_t)l.n;
    uint64_t sum = 0;
    for (int i = 0; i < l.n; i++) {
        struct setup after = *s;
        ref_apply(v, &after, l.m[i]);
        sum += reference_perft(v, &after, depth - 1);
    }
    return sum;
}
