/* The reference move generator (reference.h): plain mailbox code written from the rules' words (docs/variants.md). */
#include "reference.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct ref_move {
    int from, to;
    int promo;   /* type the pawn becomes, or -1 */
    int victim;  /* cell of the pawn taken en passant, or CELL_NONE */
    int passed;  /* first cell a double or triple step passes over (of a pawn taken en passant), or CELL_NONE */
    int fission; /* Fusion: the component type that moves away alone (the other stays), or -1 */
    int castle;  /* castling: the rule (variant.h, castle[side][rule]), or -1 */
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
    return (struct ref_move){ from, to, -1, CELL_NONE, CELL_NONE, -1, -1 };
}

/* The cell one vector away, or CELL_NONE off the board. */
static int ref_step(const struct variant *v, int cell, struct vec d)
{
    return geo_cell(&v->geo, v->geo.q[cell] + d.q, v->geo.r[cell] + d.r);
}

/* A vector of a piece's movement as the player sees it. */
static struct vec ref_turn(const struct variant *v, int player, struct vec d)
{
    return geo_rotate(d, v->rotation[player]);
}

/* How many vectors a list holds: it ends at the first zero vector or after max. */
static int ref_dirs(const struct vec *dir, int max)
{
    int n = 0;
    while (n < max && (dir[n].q || dir[n].r))
        n++;
    return n;
}

static int ref_atoms(const struct reference_piece *p)
{
    int n = 0;
    while (n < REFERENCE_ATOMS && p->atom[n].motion != REF_END)
        n++;
    return n;
}

/* Adds a vector to the piece's atom of that motion, mode and reach, opening one where none has room. */
static void ref_atom_add(struct reference_piece *p, enum reference_motion motion, unsigned mode, int reach,
                         struct vec d)
{
    for (int i = 0; i < REFERENCE_ATOMS; i++) {
        struct reference_atom *a = &p->atom[i];
        if (a->motion == REF_END)
            *a = (struct reference_atom){ .motion = motion, .mode = (unsigned char)mode, .reach = reach };
        if (a->motion != motion || a->mode != mode || a->reach != reach)
            continue;
        int n = ref_dirs(a->dir, REFERENCE_DIRS);
        if (n < REFERENCE_DIRS) {
            a->dir[n] = d;
            return;
        }
    }
    abort();
}

/* A user variant's piece in the reference's words, read from its parsed definition. */
static void ref_from_def(const struct piece_def *d, struct reference_piece *p)
{
    memset(p, 0, sizeof *p);
    p->name = d->name;
    for (int i = 0; i < d->nleaps; i++)
        ref_atom_add(p, d->leaps[i].start ? REF_START_LEAP : REF_LEAP, d->leaps[i].mode, 1,
                     (struct vec){ d->leaps[i].dq, d->leaps[i].dr });
    for (unsigned mode = MODE_MOVE; mode <= MODE_BOTH; mode++)
        for (int dir = 0; dir < NUM_STRAIGHT; dir++) {
            if (d->slide[mode] >> dir & 1)
                ref_atom_add(p, REF_SLIDE, mode, 0, geo_straight(dir));
            if (d->ride[mode] >> dir & 1)
                ref_atom_add(p, REF_SLIDE, mode, 0, geo_root7[dir]);
            if (d->curved[mode] >> dir & 1)
                ref_atom_add(p, REF_CURVE, mode, d->curved_steps[dir >= DIR_DIAG], geo_straight(dir));
        }
    for (int dir = 0; dir < NUM_STRAIGHT; dir++)
        if (d->hop >> dir & 1)
            ref_atom_add(p, REF_HOP, MODE_CAPTURE, 0, geo_straight(dir));
    /* Path kinds (geometry.h) as the reference's motions: Long and Short crooked paths turn one and two
     * sixths of a turn. */
    static const struct { enum reference_motion motion; int reach; } path_motion[PATH_KINDS] = {
        [PATH_LONG] = { REF_CROOKED, 1 }, [PATH_SHORT] = { REF_CROOKED, 2 },
        [PATH_BENT] = { REF_BENT, 0 }, [PATH_JOINED] = { REF_JOINED, 0 },
    };
    for (int k = 0; k < PATH_KINDS; k++)
        for (unsigned mode = MODE_MOVE; mode <= MODE_BOTH; mode++)
            for (int dir = 0; dir < NUM_STRAIGHT; dir++)
                if (d->path[k][mode] >> dir & 1)
                    ref_atom_add(p, path_motion[k].motion, mode, path_motion[k].reach, geo_straight(dir));
    /* The double step goes along those of its move steps W that double@ lists. */
    int n = 0;
    for (int i = 0; d->double_step && i < d->nleaps; i++)
        for (int k = 0; k < 6; k++)
            if ((d->leaps[i].mode & MODE_MOVE) && (d->double_dirs >> k & 1) && d->leaps[i].dq == geo_orth[k].q &&
                d->leaps[i].dr == geo_orth[k].r)
                p->double_step[n++] = geo_orth[k];
    p->en_passant = d->en_passant;
    p->centreward = d->centreward;
    p->blocked = d->blocked;
}

/* How a type moves: in a built-in variant as the reference's table says (reference_pieces.c, written
 * from the rules' words), so that a wrong line in variants.ini fails the comparison with the engine; in
 * a user's variant (docs/examples, tests/fixtures) as its parsed definition says, there being no other
 * source. Kept for the last variant asked about. */
static const struct reference_piece *ref_piece(const struct variant *v, int type)
{
    static struct {
        uint64_t fingerprint;
        char name[NAME_LEN];
        struct reference_piece piece[MAX_TYPES];
    } last;
    if (last.fingerprint != v->fingerprint || strcmp(last.name, v->name)) {
        for (int t = 0; t < v->ntypes; t++) {
            const struct reference_piece *p = reference_piece_of(v->name, v->piece[t].army, v->piece[t].letter);
            if (p)
                last.piece[t] = *p;
            else
                ref_from_def(&v->piece[t], &last.piece[t]);
        }
        last.fingerprint = v->fingerprint;
        strcpy(last.name, v->name);
    }
    return &last.piece[type];
}

/* The cell one step of the piece's first double-step vector ahead, as the player sees it, or CELL_NONE. */
static int ref_ahead(const struct variant *v, int player, const struct reference_piece *p, int cell)
{
    return ref_dirs(p->double_step, REFERENCE_DOUBLE_DIRS) ? ref_step(v, cell, ref_turn(v, player, p->double_step[0]))
                                                           : CELL_NONE;
}

/* How many steps the first move of the player's piece of the type may take from the cell in one line (2
 * or 3), or 0. Seed 003's Trios rule, where the variant has it: "Brokers and Migrants starting behind
 * others of their kind" have the double step, so the cell must hold such a pawn in the start position,
 * with another of its player and type on the cell ahead; a pawn of that type that comes there later has
 * it too, one of another type never. Elsewhere the variant's double- and triple-step cells. Kept for the
 * last variant asked about. */
static int ref_steps_from(const struct variant *v, int player, int type, int cell)
{
    if (!reference_double_behind(v->name, v->piece[type].army))
        return variant_double_steps(v, player, type, cell);
    static struct {
        uint64_t fingerprint;
        char name[NAME_LEN];
        struct setup start;
    } last;
    if (last.fingerprint != v->fingerprint || strcmp(last.name, v->name)) {
        char err[256];
        if (!setup_from_fen(&last.start, v, v->start_fen, err, sizeof err))
            abort();
        last.fingerprint = v->fingerprint;
        strcpy(last.name, v->name);
    }
    int here = last.start.piece[cell], ahead = ref_ahead(v, player, ref_piece(v, type), cell);
    bool behind = here == piece_make(player, type) && v->piece[type].pawn && ahead != CELL_NONE &&
                  last.start.piece[ahead] == here;
    return behind ? 2 : 0;
}

/* The vector of the atom's k-th direction as the player sees it; a leap's times its reach. */
static struct vec ref_atom_vec(const struct variant *v, int player, const struct reference_atom *a, int k)
{
    int n = a->motion == REF_LEAP || a->motion == REF_START_LEAP ? a->reach : 1;
    return ref_turn(v, player, (struct vec){ n * a->dir[k].q, n * a->dir[k].r });
}

/* A centreward piece never leaps away from the central file q = 0 (the Flatstar Point). */
static bool ref_centreward_ok(const struct variant *v, const struct reference_piece *p, int from, int to)
{
    return !p->centreward || abs(v->geo.q[to]) <= abs(v->geo.q[from]);
}

/* Where a leap by the vector takes the piece from the cell: CELL_NONE off the board or where the
 * centreward rule forbids it. */
static int ref_leap_target(const struct variant *v, const struct reference_piece *p, int from, struct vec u)
{
    int to = ref_step(v, from, u);
    return to != CELL_NONE && ref_centreward_ok(v, p, from, to) ? to : CELL_NONE;
}

/* Whether the atom is a leap the player's piece of the type may make from the cell: start leaps only from
 * the piece's start (double-step) cells. */
static bool ref_leaps_from(const struct variant *v, int player, int type, const struct reference_atom *a, int from)
{
    return a->motion == REF_LEAP || (a->motion == REF_START_LEAP && ref_steps_from(v, player, type, from));
}

/* The cells that the leaps of the mode of the player's piece of the type reach from the cell; returns how
 * many. */
static int ref_leap_cells(const struct variant *v, int player, int type, unsigned mode, int from,
                          int cells[REFERENCE_ATOMS * REFERENCE_DIRS])
{
    const struct reference_piece *p = ref_piece(v, type);
    int n = 0;
    for (int i = 0, natoms = ref_atoms(p); i < natoms; i++) {
        const struct reference_atom *a = &p->atom[i];
        int ndirs = ref_leaps_from(v, player, type, a, from) && (a->mode & mode) ? ref_dirs(a->dir, REFERENCE_DIRS) : 0;
        for (int k = 0; k < ndirs; k++) {
            int to = ref_leap_target(v, p, from, ref_atom_vec(v, player, a, k));
            if (to != CELL_NONE)
                cells[n++] = to;
        }
    }
    return n;
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

/* A curved path (cR, cB): the first step is the vector, and each further step is the previous one
 * turned 60 degrees the same way (sense +1 counter-clockwise, -1 clockwise), at most `steps` steps. Like
 * a slide it passes empty cells only, may end on the first piece met, and stops at the edge. */
static void ref_curved(const struct variant *v, const struct setup *s, int from, struct vec first, int sense,
                       int steps, unsigned mode, struct ref_list *l, struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), to = from;
    for (int k = 1; k <= steps; k++) {
        to = ref_step(v, to, geo_rotate(first, sense * (k - 1)));
        if (to == CELL_NONE)
            return;
        if (ref_may_land(s, colour, to, mode)) {
            ref_add(l, ref_simple(from, to));
            if (st && s->piece[to])
                st->curved_captures++;
        }
        if (s->piece[to]) {
            if (st)
                st->curved_stops[k]++;
            return;
        }
    }
}

/* A move along a path onto a cell on the board: added if the piece may end there; st counts captures. */
static void ref_path_land(const struct setup *s, int colour, int from, int to, unsigned mode, struct ref_list *l,
                          struct reference_stats *st)
{
    if (to == CELL_NONE || !ref_may_land(s, colour, to, mode))
        return;
    ref_add(l, ref_simple(from, to));
    if (st && s->piece[to])
        st->path_captures++;
}

/* Whether a path must stop on the cell (off the board, or a piece there); st counts a piece cutting
 * the path short. */
static bool ref_path_stops(const struct setup *s, int cell, struct reference_stats *st)
{
    if (cell != CELL_NONE && s->piece[cell] && st)
        st->path_blocked++;
    return cell == CELL_NONE || s->piece[cell];
}

/* The two directions 30 degrees from a straight vector (side +1 counter-clockwise, -1 clockwise): from
 * an orthogonal the diagonal between it and its 60-degree neighbour (their sum), from a diagonal the
 * orthogonal between it and its neighbour (a third of their sum: Di + D(i+1) = 3 O(i+1)). */
static struct vec ref_half_turn(struct vec u, int side)
{
    struct vec n = geo_rotate(u, side), w = { u.q + n.q, u.r + n.r };
    bool orthogonal = geo_distance(u, (struct vec){ 0, 0 }) == 1;
    return orthogonal ? w : (struct vec){ w.q / 3, w.r / 3 };
}

/* A crooked path (zR, zB): the vector and the vector turned `turn` sixths, alternately, both ways. */
static void ref_crooked(const struct variant *v, const struct setup *s, int from, struct vec u, int turn,
                        unsigned mode, struct ref_list *l, struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]);
    for (int side = -1; side <= 1; side += 2) {
        struct vec other = geo_rotate(u, side * turn);
        int to = ref_step(v, from, u);
        for (int k = 1; to != CELL_NONE; k++) {
            ref_path_land(s, colour, from, to, mode, l, st);
            if (ref_path_stops(s, to, st))
                break;
            to = ref_step(v, to, k % 2 ? other : u);
        }
    }
}

/* A bent path (gR, gB): one step, then a slide 30 degrees from it if that cell is empty. */
static void ref_bent(const struct variant *v, const struct setup *s, int from, struct vec u, unsigned mode,
                     struct ref_list *l, struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), first = ref_step(v, from, u);
    if (first == CELL_NONE)
        return;
    ref_path_land(s, colour, from, first, mode, l, st);
    if (ref_path_stops(s, first, st))
        return;
    for (int side = -1; side <= 1; side += 2) {
        struct vec w = ref_half_turn(u, side);
        for (int to = ref_step(v, first, w); to != CELL_NONE; to = ref_step(v, to, w)) {
            ref_path_land(s, colour, from, to, mode, l, st);
            if (ref_path_stops(s, to, st))
                break;
        }
    }
}

/* A joined path (jR, jB): one step to an empty cell, an optional slide 30 degrees from it through empty
 * cells, one step 30 degrees from the slide. */
static void ref_joined(const struct variant *v, const struct setup *s, int from, struct vec u, unsigned mode,
                       struct ref_list *l, struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), first = ref_step(v, from, u);
    if (ref_path_stops(s, first, st))
        return;
    for (int side = -1; side <= 1; side += 2) {
        struct vec w = ref_half_turn(u, side);
        for (int c = first; !ref_path_stops(s, c, st); c = ref_step(v, c, w))
            for (int last = -1; last <= 1; last += 2)
                ref_path_land(s, colour, from, ref_step(v, c, ref_half_turn(w, last)), mode, l, st);
    }
}

/* A hopping capture (hR, hB): along the line, any empty cells, exactly one piece of any colour (the
 * screen), any empty cells, then the first piece, taken if it is an enemy. */
static void ref_hop(const struct variant *v, const struct setup *s, int from, struct vec d, struct ref_list *l,
                    struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), screen = CELL_NONE;
    for (int to = ref_step(v, from, d); to != CELL_NONE; to = ref_step(v, to, d)) {
        if (!s->piece[to])
            continue;
        if (screen == CELL_NONE) {
            screen = to;
            continue;
        }
        if (piece_colour(s->piece[to]) != colour) {
            ref_add(l, ref_simple(from, to));
            if (st)
                st->hop_captures[piece_colour(s->piece[screen]) != colour]++;
        }
        return;
    }
}

/* A leap by the vector; st (may be NULL) counts the centreward rule at work. */
static void ref_leap(const struct variant *v, const struct setup *s, int from, struct vec u, unsigned mode,
                     struct ref_list *l, struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]);
    const struct reference_piece *p = ref_piece(v, piece_type(s->piece[from]));
    int to = ref_leap_target(v, p, from, u);
    if (st && to == CELL_NONE && ref_step(v, from, u) != CELL_NONE)
        st->centreward_refused++;
    if (to != CELL_NONE && ref_may_land(s, colour, to, mode)) {
        ref_add(l, ref_simple(from, to));
        if (st && p->centreward && v->geo.q[from] == 0)
            st->centreward_central++;
    }
}

/* Leaps, slides, rides, curved paths and hops of the piece on the cell, without any pawn rule; st
 * (may be NULL) counts what they meet. */
static void ref_basic(const struct variant *v, const struct setup *s, int from, struct ref_list *l,
                      struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), type = piece_type(s->piece[from]);
    const struct reference_piece *p = ref_piece(v, type);
    for (int i = 0, natoms = ref_atoms(p); i < natoms; i++) {
        const struct reference_atom *a = &p->atom[i];
        int before = l->n;
        for (int k = 0, ndirs = ref_dirs(a->dir, REFERENCE_DIRS); k < ndirs; k++) {
            struct vec u = ref_atom_vec(v, colour, a, k);
            switch (a->motion) {
            case REF_LEAP: case REF_START_LEAP:
                if (ref_leaps_from(v, colour, type, a, from))
                    ref_leap(v, s, from, u, a->mode, l, st);
                break;
            case REF_SLIDE:
                ref_line(v, s, from, u, a->mode, l);
                break;
            case REF_CURVE:
                for (int sense = -1; sense <= 1; sense += 2)
                    ref_curved(v, s, from, u, sense, a->reach, a->mode, l, st);
                break;
            case REF_CROOKED:
                ref_crooked(v, s, from, u, a->reach, a->mode, l, st);
                break;
            case REF_BENT:
                ref_bent(v, s, from, u, a->mode, l, st);
                break;
            case REF_JOINED:
                ref_joined(v, s, from, u, a->mode, l, st);
                break;
            default: /* REF_HOP */
                ref_hop(v, s, from, u, l, st);
            }
        }
        /* A capture-only slide or curved path of a non-pawn yields captures only: a divergent piece's. */
        bool divergent = a->mode == MODE_CAPTURE && !v->piece[type].pawn;
        if (st && divergent && (a->motion == REF_SLIDE || a->motion == REF_CURVE))
            st->divergent_captures += l->n - before;
    }
}

/* Whether the player still has its royal piece, i.e. its army is on the board (three players: an
 * eliminated army has no pieces at all). */
static bool ref_on_board(const struct variant *v, const struct setup *s, int player)
{
    for (int c = 0; c < v->geo.ncells; c++)
        if (s->piece[c] && piece_colour(s->piece[c]) == player && v->piece[piece_type(s->piece[c])].royal)
            return true;
    return false;
}

/* The army after the player in turn order, skipping armies without a royal (variants.md). Two players:
 * simply the other one. */
static int ref_next_army(const struct variant *v, const struct setup *s, int player)
{
    int n = v->nplayers;
    if (n > 2)
        for (int k = 1; k < n; k++)
            if (ref_on_board(v, s, (player + k) % n))
                return (player + k) % n;
    return (player + 1) % n;
}

/* The army before the side to move in turn order that is still on the board: the one that made the last
 * ply, also after an elimination (which is not a ply). Two players: simply the other one. */
static int ref_prev_army(const struct variant *v, const struct setup *s)
{
    int n = v->nplayers;
    if (n > 2)
        for (int k = 1; k < n; k++)
            if (ref_on_board(v, s, (s->side + n - k) % n))
                return (s->side + n - k) % n;
    return (s->side + n - 1) % n;
}

bool reference_captures(const struct variant *v, const struct setup *s, int from, int cell)
{
    struct ref_list l;
    l.n = 0;
    ref_basic(v, s, from, &l, NULL);
    for (int i = 0; i < l.n; i++)
        if (l.m[i].to == cell)
            return true;
    return false;
}

/* Could a piece of the attacker's colour capture the piece on the cell (pseudo-legally: a pinned piece
 * still attacks, docs/variants.md)? */
static bool ref_attacked_by(const struct variant *v, const struct setup *s, int cell, int attacker)
{
    for (int from = 0; from < v->geo.ncells; from++)
        if (s->piece[from] && piece_colour(s->piece[from]) == attacker && reference_captures(v, s, from, cell))
            return true;
    return false;
}

/* The cell holds a piece of the colour: could a piece of any other colour capture it? */
static bool ref_attacked(const struct variant *v, const struct setup *s, int cell, int colour)
{
    for (int p = 0; p < v->nplayers; p++)
        if (p != colour && ref_attacked_by(v, s, cell, p))
            return true;
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

/* The promotion zone: no move-mode leap (centreward ones filtered) stays on the board. */
bool reference_in_zone(const struct variant *v, int player, int type, int cell)
{
    int cells[REFERENCE_ATOMS * REFERENCE_DIRS];
    return !ref_leap_cells(v, player, type, MODE_MOVE, cell, cells);
}

/* The pawn that made the last ply's double or triple step, while it is on the board. */
static int ref_ep_victim(const struct setup *s)
{
    return s->ep != CELL_NONE && s->piece[s->ep_victim] ? s->ep_victim : CELL_NONE;
}

/* The orthogonal step that leads from one cell to the other along a straight line, or {0, 0}. */
static struct vec ref_orth_towards(const struct variant *v, int from, int to)
{
    for (int d = 0; d < 6; d++)
        for (int c = ref_step(v, from, geo_orth[d]); c != CELL_NONE; c = ref_step(v, c, geo_orth[d]))
            if (c == to)
                return geo_orth[d];
    return (struct vec){ 0, 0 };
}

/* Two or three (from a triple-step cell) move steps in one line along a double-step direction from a
 * double-step cell, the first one a step the piece may take from here (centreward filtered), every cell
 * on the way and the last empty. */
static void ref_double_steps(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]), type = piece_type(s->piece[from]);
    const struct reference_piece *p = ref_piece(v, type);
    int most = ref_steps_from(v, colour, type, from);
    for (int k = 0; most && k < ref_dirs(p->double_step, REFERENCE_DOUBLE_DIRS); k++) {
        struct vec u = ref_turn(v, colour, p->double_step[k]);
        int mid = ref_leap_target(v, p, from, u), to = mid;
        for (int steps = 2; to != CELL_NONE && !s->piece[to] && steps <= most; steps++) {
            to = ref_step(v, to, u);
            /* Only a piece that can be taken en passant leaves the passed cells behind. */
            if (to != CELL_NONE && !s->piece[to])
                ref_add(l, (struct ref_move){ from, to, -1, CELL_NONE, p->en_passant ? mid : CELL_NONE, -1, -1 });
        }
    }
}

/* En passant: a piece of the same kind as the pawn that just made a double or triple step takes it by a
 * capturing leap onto any cell it passed. */
static void ref_en_passant(const struct variant *v, const struct setup *s, int from, struct ref_list *l)
{
    int colour = piece_colour(s->piece[from]), victim = ref_ep_victim(s);
    const struct reference_piece *p = ref_piece(v, piece_type(s->piece[from]));
    if (!p->en_passant || victim == CELL_NONE || piece_type(s->piece[victim]) != piece_type(s->piece[from])
        || piece_colour(s->piece[victim]) == colour)
        return;
    int cells[REFERENCE_ATOMS * REFERENCE_DIRS];
    int n = ref_leap_cells(v, colour, piece_type(s->piece[from]), MODE_CAPTURE, from, cells);
    struct vec u = ref_orth_towards(v, s->ep, victim);
    for (int passed = s->ep; passed != victim; passed = ref_step(v, passed, u)) {
        bool reaches = false;
        for (int i = 0; i < n; i++)
            reaches |= cells[i] == passed;
        if (!reaches)
            continue;
        /* Where the pawn could also move to the passed cell, that move is the capture (docs/variants.md, en passant). */
        bool merged = false;
        for (int i = 0; i < l->n && !merged; i++)
            if (l->m[i].from == from && l->m[i].to == passed) {
                l->m[i].victim = victim;
                merged = true;
            }
        if (!merged)
            ref_add(l, (struct ref_move){ from, passed, -1, victim, CELL_NONE, -1, -1 });
    }
}

/* How many pieces of the type the player has on the board. */
static int ref_count_type(const struct variant *v, const struct setup *s, int player, int type)
{
    int n = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        n += s->piece[c] == piece_make(player, type);
    return n;
}

/* How many of the player's pieces count against the limit of a simple type: its own pieces and, in
 * Fusion, the compounds that hold it. Without Fusion no type has components: the plain count. */
static int ref_count_limit(const struct variant *v, const struct setup *s, int player, int type)
{
    int n = 0;
    for (int c = 0; c < v->geo.ncells; c++) {
        int p = s->piece[c];
        if (!p || piece_colour(p) != player)
            continue;
        int t = piece_type(p);
        n += t == type || memchr(v->component[t], type + 1, sizeof v->component[t]) != NULL;
    }
    return n;
}

/* Whether the limit lets the player's pawn become the type: a compound needs room for every type it
 * may divide into, a simple type for itself (counted alone and inside compounds). */
static bool ref_promotion_room(const struct variant *v, const struct setup *s, int player, int type)
{
    if (v->promo_limit <= 0)
        return true;
    for (size_t k = 0; k < sizeof v->component[type] && v->component[type][k]; k++)
        if (ref_count_limit(v, s, player, v->component[type][k] - 1) >= v->promo_limit)
            return false;
    return variant_is_compound(v, type) || ref_count_limit(v, s, player, type) < v->promo_limit;
}

/* Copies one piece's moves; a pawn's moves ending in its zone become one per promotion type that the
 * variant's limit allows (counted before the move); none allowed: the move is dropped. */
static void ref_promote(const struct variant *v, const struct setup *s, const struct ref_list *moves,
                        struct ref_list *l, struct reference_stats *st)
{
    for (int i = 0; i < moves->n; i++) {
        struct ref_move m = moves->m[i];
        int p = s->piece[m.from];
        if (!v->piece[piece_type(p)].pawn || !reference_in_zone(v, piece_colour(p), piece_type(p), m.to)) {
            ref_add(l, m);
            continue;
        }
        int offered = 0;
        for (int k = 0; k < v->npromo; k++) {
            /* Each army promotes to its own pieces. */
            if (v->piece[v->promo[k]].army != v->piece[piece_type(p)].army)
                continue;
            if (!ref_promotion_room(v, s, piece_colour(p), v->promo[k])) {
                if (st) {
                    st->promotions_refused++;
                    /* Refused although the type's own pieces leave room: by pieces inside compounds. */
                    st->promotions_refused_inside += ref_count_type(v, s, piece_colour(p), v->promo[k]) <
                                                     v->promo_limit;
                }
                continue;
            }
            m.promo = v->promo[k];
            ref_add(l, m);
            offered++;
        }
        if (st && !offered)
            st->promotions_blocked++;
    }
}

static bool ref_has_target(const struct ref_list *l, int to)
{
    for (int i = 0; i < l->n; i++)
        if (l->m[i].to == to)
            return true;
    return false;
}

/* Whether the variant has Fusion: some pair of types fuses. */
static bool ref_has_fusion(const struct variant *v)
{
    for (int a = 0; a < v->ntypes; a++)
        for (int b = 0; b < v->ntypes; b++)
            if (v->fuse[a][b])
                return true;
    return false;
}

/* The compound that a piece of type a moving onto a friendly piece of type b becomes, or -1: both must
 * be simple and the pair must fuse. */
static int ref_fused(const struct variant *v, int a, int b)
{
    if (variant_is_compound(v, a) || variant_is_compound(v, b))
        return -1;
    return v->fuse[a][b] - 1;
}

/* Fusion: the friendly pieces that the piece's usual move would reach if their cells were empty (a
 * fusion captures nothing, so a divergent piece fuses by its moving atoms, not its capturing ones;
 * the path up to the cell must be clear). Each friendly piece's cell in turn is emptied, nothing else
 * changes, and the piece may move onto it when it reaches it and the two fuse. */
static void ref_fusions(const struct variant *v, const struct setup *s, int from, struct ref_list *l,
                        struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), a = piece_type(s->piece[from]);
    bool compound = variant_is_compound(v, a), fuses = false;
    for (int b = 0; b < v->ntypes; b++)
        fuses |= ref_fused(v, a, b) >= 0;
    if (!compound && !fuses)
        return;
    for (int to = 0; to < v->geo.ncells; to++) {
        int q = s->piece[to];
        if (to == from || !q || piece_colour(q) != colour)
            continue;
        struct setup emptied = *s;
        emptied.piece[to] = 0;
        struct ref_list reach;
        reach.n = 0;
        ref_basic(v, &emptied, from, &reach, NULL);
        if (!ref_has_target(&reach, to))
            continue;
        int b = piece_type(q);
        if (compound) {
            if (st)
                st->fusions_refused[2]++;
        } else if (variant_is_compound(v, b)) {
            if (st)
                st->fusions_refused[1]++;
        } else if (ref_fused(v, a, b) < 0) {
            if (st)
                st->fusions_refused[0]++;
        } else {
            ref_add(l, ref_simple(from, to));
            if (st)
                st->fusions++;
        }
    }
}

/* Fission: each component of a compound alone, as if it stood on the cell by itself, moves to an empty
 * cell (never a capture); its partner stays. A compound that two pairs form (divergent Fusion) may
 * divide into either pair: each of its four components may leave. One move per component and target. */
static void ref_fissions(const struct variant *v, const struct setup *s, int from, struct ref_list *l,
                         struct reference_stats *st)
{
    int colour = piece_colour(s->piece[from]), c = piece_type(s->piece[from]);
    if (!variant_is_compound(v, c))
        return;
    for (size_t k = 0; k < sizeof v->component[c] && v->component[c][k]; k++) {
        int part = v->component[c][k] - 1;
        struct setup alone = *s;
        alone.piece[from] = (unsigned char)piece_make(colour, part);
        struct ref_list reach, met;
        reach.n = met.n = 0;
        ref_basic(v, &alone, from, &reach, NULL);
        for (int i = 0; i < reach.n; i++) {
            int to = reach.m[i].to;
            if (ref_has_target(&met, to))
                continue;
            ref_add(&met, reach.m[i]);
            if (s->piece[to]) {
                if (st)
                    st->fissions_refused++;
                continue;
            }
            struct ref_move m = ref_simple(from, to);
            m.fission = part;
            ref_add(l, m);
            if (st)
                st->fissions++;
        }
    }
}

/* One piece's moves: a target reached by two atoms (a Sailor's W and R) or two curved paths is one
 * move. */
/* A blocked piece on one of its start cells with an enemy on a cell one of its move leaps reaches. */
static bool ref_blocked(const struct variant *v, const struct setup *s, int from)
{
    int colour = piece_colour(s->piece[from]), type = piece_type(s->piece[from]);
    int cells[REFERENCE_ATOMS * REFERENCE_DIRS];
    int n = ref_piece(v, type)->blocked && ref_steps_from(v, colour, type, from)
                ? ref_leap_cells(v, colour, type, MODE_MOVE, from, cells) : 0;
    for (int i = 0; i < n; i++)
        if (s->piece[cells[i]] && piece_colour(s->piece[cells[i]]) != colour)
            return true;
    return false;
}

/* Keeps the moves that capture. */
static void ref_drop_quiet(const struct setup *s, struct ref_list *l)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        if (s->piece[l->m[i].to])
            l->m[n++] = l->m[i];
    l->n = n;
}

static void ref_piece_moves(const struct variant *v, const struct setup *s, int from, struct ref_list *l,
                            struct reference_stats *st)
{
    struct ref_list basic, moves;
    basic.n = moves.n = 0;
    ref_basic(v, s, from, &basic, st);
    for (int i = 0; i < basic.n; i++)
        if (!ref_has_target(&moves, basic.m[i].to))
            ref_add(&moves, basic.m[i]);
    if (ref_has_fusion(v)) {
        ref_fusions(v, s, from, &moves, st);
        ref_fissions(v, s, from, &moves, st);
    }
    if (v->piece[piece_type(s->piece[from])].pawn) {
        if (ref_blocked(v, s, from))
            ref_drop_quiet(s, &moves);
        else
            ref_double_steps(v, s, from, &moves);
        ref_en_passant(v, s, from, &moves);
    }
    ref_promote(v, s, &moves, l, st);
}

/* Castling (variants.md, "Rules (seed 003)"): the royal and a rook on one line, both unmoved (the
 * setup's right says so), pass each other, the royal to the target nearer the rook and the rook to the
 * other; every cell between them must be empty, and no cell the royal stands on or crosses may be
 * attacked. A crossed cell is attacked if the royal, moved there from its cell (the rook still at
 * home), would be in check. Where it lands is checked like any move's result (ref_legal). */
static void ref_castles(const struct variant *v, const struct setup *s, struct ref_list *l,
                        struct reference_stats *st)
{
    int side = s->side;
    for (int i = 0; i < v->ncastles; i++) {
        const struct castle_rule *r = &v->castle[side][i];
        if (!(s->castling & castle_bit(side, i)))
            continue;
        struct vec u = ref_orth_towards(v, r->royal, r->rook);
        bool clear = true;
        for (int c = ref_step(v, r->royal, u); c != r->rook; c = ref_step(v, c, u))
            clear &= !s->piece[c];
        if (!clear) {
            if (st)
                st->castles_blocked++;
            continue;
        }
        bool safe = !reference_in_check(v, s, side);
        for (int c = ref_step(v, r->royal, u); safe && c != r->royal_to; c = ref_step(v, c, u)) {
            struct setup there = *s;
            there.piece[c] = there.piece[r->royal];
            there.piece[r->royal] = 0;
            safe = !reference_in_check(v, &there, side);
        }
        if (st)
            st->castles_attacked += !safe;
        if (!safe)
            continue;
        struct ref_move m = ref_simple(r->royal, r->royal_to);
        m.castle = i;
        ref_add(l, m);
        if (st)
            st->castles++;
    }
}

static void ref_pseudo(const struct variant *v, const struct setup *s, struct ref_list *l,
                       struct reference_stats *st)
{
    l->n = 0;
    for (int from = 0; from < v->geo.ncells; from++)
        if (s->piece[from] && piece_colour(s->piece[from]) == s->side)
            ref_piece_moves(v, s, from, l, st);
    ref_castles(v, s, l, st);
}

void reference_count(const struct variant *v, const struct setup *s, struct reference_stats *st)
{
    struct ref_list l;
    ref_pseudo(v, s, &l, st);
}

/* A castling right is lost once its royal or its rook has moved, or anything has landed on the rook's
 * cell (a capture, or a fusion). */
static void ref_rights_after(const struct variant *v, struct setup *s, struct ref_move m)
{
    for (int p = 0; p < v->nplayers; p++)
        for (int i = 0; i < v->ncastles; i++) {
            const struct castle_rule *r = &v->castle[p][i];
            if (m.from == r->royal || m.from == r->rook || m.to == r->rook)
                s->castling &= ~castle_bit(p, i);
        }
}

/* Plays a move. Fusion: onto a friendly piece, the two become their compound; fission: the moving
 * component goes to the (empty) target and the other stays. Neither is a capture or a pawn move.
 * Castling: both pieces are lifted, then set down (a target may be the other's cell). */
static void ref_apply(const struct variant *v, struct setup *s, struct ref_move m)
{
    int p = s->piece[m.from], colour = piece_colour(p), q = s->piece[m.to];
    int passer = ref_ep_victim(s) != CELL_NONE ? s->piece[s->ep_victim] : 0;
    bool capture = (q && piece_colour(q) != colour) || m.victim != CELL_NONE;
    if (m.victim != CELL_NONE)
        s->piece[m.victim] = 0;
    if (m.castle >= 0) {
        const struct castle_rule *r = &v->castle[colour][m.castle];
        int rook = s->piece[r->rook];
        s->piece[r->royal] = s->piece[r->rook] = 0;
        s->piece[r->royal_to] = (unsigned char)p;
        s->piece[r->rook_to] = (unsigned char)rook;
    } else if (m.fission >= 0) {
        /* The partner of the leaving component in the pair it belongs to (pairs are listed side by side). */
        const unsigned char *parts = v->component[piece_type(p)];
        int k = (int)((const unsigned char *)memchr(parts, m.fission + 1, sizeof v->component[0]) - parts);
        int stays = parts[k ^ 1] - 1;
        s->piece[m.to] = (unsigned char)piece_make(colour, m.fission);
        s->piece[m.from] = (unsigned char)piece_make(colour, stays);
    } else {
        if (q && piece_colour(q) == colour)
            s->piece[m.to] = (unsigned char)piece_make(colour, ref_fused(v, piece_type(p), piece_type(q)));
        else
            s->piece[m.to] = (unsigned char)(m.promo >= 0 ? piece_make(colour, m.promo) : p);
        s->piece[m.from] = 0;
    }
    s->halfmove = capture || v->piece[piece_type(p)].pawn ? 0 : s->halfmove + 1;
    /* Different armies (variants.md, four players): a double step stays open to the next army of its
     * pawn's kind while armies of other kinds move and its pawn stands; a new double step replaces it. */
    bool kept = passer && s->piece[s->ep_victim] == passer && v->army[piece_colour(passer)] != v->army[colour];
    if (!kept || m.passed != CELL_NONE) {
        s->ep = m.passed;
        s->ep_victim = m.passed != CELL_NONE ? m.to : CELL_NONE;
    }
    ref_rights_after(v, s, m);
    /* The fullmove number grows when the turn passes to an army earlier in turn order (protocol.md). */
    int next = ref_next_army(v, s, s->side);
    if (next < s->side)
        s->fullmove++;
    s->side = next;
}

static void ref_legal(const struct variant *v, const struct setup *s, struct ref_list *l)
{
    ref_pseudo(v, s, l, NULL);
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
    int suffix = m.promo >= 0 ? m.promo : m.fission;
    if (suffix >= 0) {
        size_t n = strlen(out);
        out[n] = (char)tolower((unsigned char)v->piece[suffix].letter);
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

/* Takes the army's pieces off the board and records it. */
static void ref_eliminate(const struct variant *v, struct setup *s, int player, bool no_move,
                          struct reference_resolution *r)
{
    for (int c = 0; c < v->geo.ncells; c++)
        if (s->piece[c] && piece_colour(s->piece[c]) == player)
            s->piece[c] = 0;
    /* Its castling rights leave with it. */
    for (int i = 0; i < v->ncastles; i++)
        s->castling &= ~castle_bit(player, i);
    r->no_move[r->neliminated] = no_move;
    r->eliminated[r->neliminated++] = player;
}

/* Whether the player to move attacks the royal piece of the army. */
static bool ref_threatens(const struct variant *v, const struct setup *s, int army)
{
    for (int c = 0; c < v->geo.ncells; c++) {
        int p = s->piece[c];
        if (p && piece_colour(p) == army && v->piece[piece_type(p)].royal && ref_attacked_by(v, s, c, s->side))
            return true;
    }
    return false;
}

bool reference_resolve(const struct variant *v, struct setup *s, struct reference_resolution *r)
{
    memset(r, 0, sizeof *r);
    r->winner = -1;
    struct ref_list l;
    int n = v->nplayers;
    if (n == 2) {
        ref_legal(v, s, &l);
        if (!l.n && reference_in_check(v, s, s->side))
            r->winner = 1 - s->side;
        r->stalemate = !l.n && r->winner < 0;
        return l.n > 0;
    }
    for (;;) {
        /* Capture-threat: every army whose royal the mover attacks now leaves at once (all of them
         * together: with a hopper, taking one army off could also remove the screen of another attack);
         * then again, since a removal can open a line to the remaining royal. */
        for (;;) {
            bool hit[MAX_PLAYERS] = { false }, any = false;
            for (int k = 1; k < n; k++) {
                int a = (s->side + k) % n;
                any |= hit[a] = ref_on_board(v, s, a) && ref_threatens(v, s, a);
            }
            if (!any)
                break;
            for (int k = 1; k < n; k++)
                if (hit[(s->side + k) % n])
                    ref_eliminate(v, s, (s->side + k) % n, false, r);
        }
        int armies = 0;
        for (int a = 0; a < n; a++)
            armies += ref_on_board(v, s, a);
        if (armies == 1) {
            r->winner = s->side;
            break;
        }
        ref_legal(v, s, &l);
        if (l.n)
            break;
        if (!reference_in_check(v, s, s->side)) {
            r->stalemate = true;
            break;
        }
        /* Checkmated: the army leaves and the next one moves in the same position; not a ply, so the
         * clocks stay and so does the en-passant cell (the next army now makes the next ply). */
        ref_eliminate(v, s, s->side, true, r);
        s->side = ref_next_army(v, s, s->side);
    }
    /* A double step whose pawn has left the board with its army leaves nothing to take. (That army made
     * the last ply, so its royal was safe then; it can only fall after another removal, and the game is
     * over then.) */
    if (r->neliminated && s->ep != CELL_NONE && ref_ep_victim(s) == CELL_NONE)
        s->ep = CELL_NONE;
    return r->winner < 0 && !r->stalemate;
}

bool reference_fen_accepted(const struct variant *v, const struct setup *s)
{
    int prev = ref_prev_army(v, s);
    return prev == s->side || !reference_in_check(v, s, prev);
}

uint64_t reference_perft(const struct variant *v, const struct setup *s, int depth)
{
    if (depth == 0)
        return 1;
    struct setup now = *s;
    struct reference_resolution res;
    /* Three players: the moves of whoever is to move after the resolution; none where the game ended. */
    if (v->nplayers > 2 && !reference_resolve(v, &now, &res))
        return 0;
    struct ref_list l;
    ref_legal(v, &now, &l);
    if (depth == 1)
        return (uint64_t)l.n;
    uint64_t sum = 0;
    for (int i = 0; i < l.n; i++) {
        struct setup after = now;
        ref_apply(v, &after, l.m[i]);
        sum += reference_perft(v, &after, depth - 1);
    }
    return sum;
}
