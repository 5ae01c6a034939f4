/* The engine's move generator, make/unmake and keys against the reference generator (reference.c):
 * random games, random placements and the perft suites, in every built-in variant and each instance;
 * the reference's own piece table (reference_pieces.c) covers the built-in pieces and catches a wrong
 * line of variants.ini. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../rules/zobrist.h"
#include "perft_epd.h"
#include "reference.h"
#include "tests.h"

/* Sized for CI; REFERENCE_SCALE=n multiplies the work (n = 3 checks every perft count up to 300 000).
 * On a big board (test_wide_only), where the reference's work per position is largest, half the games
 * and placements, and perft counts up to a tenth of PERFT_MAX. TEST_SAMPLE=k (the sanitizer runs)
 * divides the work on the other boards, which have each feature many times over; the big boards
 * meet some (promotions, castling) only a few times at their share. */
enum {
    GAMES = 8,             /* per variant and instance */
    GAME_PLIES = 150,
    PLACEMENTS = 600,      /* accepted positions per variant and instance */
    PERFT_MAX = 100000,
};

static int scale(void)
{
    const char *env = getenv("REFERENCE_SCALE");
    return env && atoi(env) > 0 ? atoi(env) : 1;
}

/* n of a kind of work in v, as the comment above sizes it; at least one. */
static long long work(const struct variant *v, long long n, int big_board_share)
{
    long long w = n * scale() / (test_wide_only(v) ? big_board_share : test_sample());
    return w > 0 ? w : 1;
}

typedef char move_text[REFERENCE_TEXT_LEN];

struct fast_move {
    move_text text;
    move_t m;
};

/* xorshift64: a fixed seed per test so that a failure repeats. */
static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
    rng_state = seed * 0x9e3779b97f4a7c15u + 1;
}

/* A test's seed from the variant's name and width (FNV-1a), so that adding a variant changes no other
 * variant's random positions. */
static void rng_seed_for(const struct variant *v, bool wide, uint64_t salt)
{
    uint64_t h = 14695981039346656037u ^ salt;
    for (const char *c = v->name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    rng_seed(h + wide);
}

static int rng_below(int n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int)(rng_state % (uint64_t)n);
}

/* Loop tests run every variant in each instance that holds its board. Index i is the i-th (variant,
 * instance) pair, narrow before wide; returns the number of pairs. */
static int loop_pair(int i, const struct variant **v, bool *wide)
{
    int n = 0;
    for (int k = 0; k < registry_count(); k++)
        for (int w = test_wide_only(registry_get(k)); w < 2; w++, n++)
            if (n == i) {
                *v = test_variant(registry_get(k)->name);
                *wide = w;
            }
    return n;
}

static int fast_cmp(const void *a, const void *b)
{
    return strcmp(((const struct fast_move *)a)->text, ((const struct fast_move *)b)->text);
}

/* The engine's legal moves, sorted by text. */
static int fast_moves(const struct game *g, struct fast_move *out)
{
    move_t list[MAX_MOVES];
    int n = g->ops->movegen_legal(g->pos, list);
    for (int i = 0; i < n; i++) {
        move_to_text(g->v, list[i], out[i].text);
        out[i].m = list[i];
    }
    qsort(out, (size_t)n, sizeof *out, fast_cmp);
    return n;
}

static move_t fast_find(const struct fast_move *fast, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(fast[i].text, text))
            return fast[i].m;
    ck_abort_msg("engine lacks move %s", text);
    return MOVE_NONE;
}

static void text_append(char *buf, size_t len, const char *what)
{
    size_t n = strlen(buf);
    if (n + strlen(what) + 2 < len)
        snprintf(buf + n, len - n, " %s", what);
}

enum { DIFF_LEN = 1024 };

/* The moves only the reference lists and those only the engine lists, of two sorted lists (a duplicate
 * counts as extra); returns whether the lists agree. */
static bool lists_diff(move_text *ref, int nref, const struct fast_move *fast, int nfast, char missing[DIFF_LEN],
                       char extra[DIFF_LEN])
{
    *missing = *extra = 0;
    int i = 0, k = 0;
    while (i < nref || k < nfast) {
        int c = i == nref ? 1 : k == nfast ? -1 : strcmp(ref[i], fast[k].text);
        if (c < 0)
            text_append(missing, DIFF_LEN, ref[i++]);
        else if (c > 0)
            text_append(extra, DIFF_LEN, fast[k++].text);
        else
            i++, k++;
    }
    return !*missing && !*extra;
}

/* Fails with the FEN and both differences unless the sorted lists agree. */
static void lists_compare(const struct game *g, const struct setup *s, move_text *ref, int nref,
                          const struct fast_move *fast, int nfast)
{
    char missing[DIFF_LEN], extra[DIFF_LEN];
    if (lists_diff(ref, nref, fast, nfast, missing, extra))
        return;
    char fen[1024];
    setup_to_fen(s, g->v, fen, sizeof fen);
    ck_abort_msg("%s (%d-bit) %s\nreference only:%s\nengine only:%s", g->v->name, g->ops->bits, fen,
                 missing, extra);
}

static bool setup_equal(const struct variant *v, const struct setup *a, const struct setup *b)
{
    return !memcmp(a->piece, b->piece, (size_t)v->geo.ncells) && a->side == b->side && a->ep == b->ep &&
           (a->ep == CELL_NONE || a->ep_victim == b->ep_victim) && a->castling == b->castling && a->halfmove == b->halfmove && a->fullmove == b->fullmove;
}

/* The engine's position must be the reference setup, with a consistent incremental key. */
static void state_compare(const struct game *g, const struct setup *want, const char *after)
{
    struct setup have;
    g->ops->position_get(g->pos, &have);
    char fen_want[1024], fen_have[1024];
    setup_to_fen(want, g->v, fen_want, sizeof fen_want);
    setup_to_fen(&have, g->v, fen_have, sizeof fen_have);
    ck_assert_msg(setup_equal(g->v, want, &have), "%s (%d-bit) after %s: engine has %s, reference %s",
                  g->v->name, g->ops->bits, after, fen_have, fen_want);
    ck_assert_msg(g->ops->position_key(g->pos) == g->ops->position_compute_key(g->pos),
                  "%s (%d-bit) after %s: incremental key differs from computed key at %s", g->v->name,
                  g->ops->bits, after, fen_want);
}

/* Compares the move lists at the current position; returns the reference moves. */
static int position_compare(const struct game *g, const struct setup *s, move_text *ref, struct fast_move *fast)
{
    int nref = reference_moves(g->v, s, ref);
    int nfast = fast_moves(g, fast);
    lists_compare(g, s, ref, nref, fast, nfast);
    return nref;
}

/* Reads the cells of a move text; returns whether it has a suffix (promotion, or fission in Fusion). */
static bool text_cells(const struct variant *v, const char *text, int *from, int *to)
{
    int len = 0, len2 = 0;
    *from = geo_parse_cell(&v->geo, text, &len);
    *to = geo_parse_cell(&v->geo, text + len, &len2);
    return text[len + len2];
}

/* What a move of the text is in the position. A suffix is a promotion for a pawn and a fission
 * (Fusion: one component moves away) for any other piece; a move onto a friendly piece is a fusion;
 * the royal's move from a rule's cell to its target, with the right held, is castling (the variant
 * keeps that target out of the royal's ordinary reach). */
enum move_kind { KIND_PLAIN, KIND_CAPTURE, KIND_PROMOTION, KIND_EN_PASSANT, KIND_FUSION, KIND_FISSION, KIND_CASTLING };

static enum move_kind move_kind(const struct variant *v, const struct setup *s, const char *text)
{
    int from, to;
    bool suffix = text_cells(v, text, &from, &to);
    for (int i = 0; i < v->ncastles; i++) {
        const struct castle_rule *r = &v->castle[s->side][i];
        if ((s->castling & castle_bit(s->side, i)) && r->royal == from && r->royal_to == to)
            return KIND_CASTLING;
    }
    bool pawn = v->piece[piece_type(s->piece[from])].pawn;
    if (suffix)
        return pawn ? KIND_PROMOTION : KIND_FISSION;
    if (s->piece[to])
        return piece_colour(s->piece[to]) == piece_colour(s->piece[from]) ? KIND_FUSION : KIND_CAPTURE;
    return pawn && to == s->ep ? KIND_EN_PASSANT : KIND_PLAIN;
}

static bool move_is_special(const struct variant *v, const struct setup *s, const char *text)
{
    enum move_kind k = move_kind(v, s, text);
    return k == KIND_CAPTURE || k == KIND_PROMOTION || k == KIND_EN_PASSANT;
}

/* Half the time castling if there is one (it is rare: the royal and a rook must both stay home while
 * the way clears, so while the mover may still castle its royal stays home three times in four), then
 * half the time a capture, promotion or en-passant capture if there is one, so that games reach
 * endgames and promotions (fusions and fissions are frequent enough among the other moves). */
static int move_choose(const struct variant *v, const struct setup *s, move_text *moves, int n)
{
    for (int i = 0; i < n; i++)
        if (move_kind(v, s, moves[i]) == KIND_CASTLING && rng_below(2))
            return i;
    int pool[REFERENCE_MAX_MOVES], k = 0, from, to;
    bool home = (s->castling & castle_bits_of(s->side)) && rng_below(4);
    for (int i = 0; i < n; i++) {
        text_cells(v, moves[i], &from, &to);
        if (!home || from != v->castle[s->side][0].royal)
            pool[k++] = i;
    }
    if (!k)
        for (; k < n; k++)
            pool[k] = k;
    if (rng_below(2)) {
        int special[REFERENCE_MAX_MOVES], m = 0;
        for (int i = 0; i < k; i++)
            if (move_is_special(v, s, moves[pool[i]]))
                special[m++] = pool[i];
        if (m)
            return special[rng_below(m)];
    }
    return pool[rng_below(k)];
}

/* Where a position came from, for failure messages: the previous FEN and the move. */
static void context_set(char *ctx, size_t len, const struct variant *v, const struct setup *s, const char *text)
{
    char fen[1024];
    setup_to_fen(s, v, fen, sizeof fen);
    snprintf(ctx, len, "%s from %s", text, fen);
}

/* The rules that random positions of a variant must exercise, from the pieces that can appear in them. */
struct features {
    int curved_steps;        /* the longest curved path, 0 without curved pieces */
    bool curved_capture, hop, divergent, centreward, promo_limit;
    bool path, path_capture; /* crooked, bent or joined paths; of them capturing */
    bool fusion;             /* two simple types that fuse */
    bool castling;           /* castling rules */
    bool fission;            /* a compound (Fusion) */
    bool limit_inside;       /* a promotion limit where compounds count for their components */
};

/* The features of the types marked in `types` (NULL: every type of the variant). */
static struct features features_of(const struct variant *v, const bool *types)
{
    struct features f = { 0 };
    for (int t = 0; t < v->ntypes; t++) {
        const struct piece_def *d = &v->piece[t];
        if (types && !types[t])
            continue;
        unsigned curved = d->curved[MODE_MOVE] | d->curved[MODE_CAPTURE] | d->curved[MODE_BOTH];
        for (int kind = 0; kind < 2; kind++)
            if ((curved >> (kind ? DIR_DIAG : DIR_ORTH) & 0x3f) && d->curved_steps[kind] > f.curved_steps)
                f.curved_steps = d->curved_steps[kind];
        f.curved_capture |= (d->curved[MODE_CAPTURE] | d->curved[MODE_BOTH]) != 0;
        f.hop |= d->hop != 0;
        for (int k = 0; k < PATH_KINDS; k++) {
            f.path |= (d->path[k][MODE_MOVE] | d->path[k][MODE_CAPTURE] | d->path[k][MODE_BOTH]) != 0;
            f.path_capture |= (d->path[k][MODE_CAPTURE] | d->path[k][MODE_BOTH]) != 0;
        }
        f.divergent |= !d->pawn && (d->slide[MODE_CAPTURE] | d->ride[MODE_CAPTURE] | d->curved[MODE_CAPTURE]);
        f.centreward |= d->centreward;
        f.fission |= variant_is_compound(v, t);
        for (int b = 0; b < v->ntypes; b++)
            f.fusion |= v->fuse[t][b] && (!types || types[b]) && !variant_is_compound(v, t) &&
                        !variant_is_compound(v, b);
    }
    f.promo_limit = v->promo_limit > 0;
    f.castling = v->ncastles > 0;
    for (int t = 0; t < v->ntypes; t++)
        f.limit_inside |= f.promo_limit && variant_is_compound(v, t);
    return f;
}

/* Fails naming the first rule of the features that the reference never met (the engine was compared
 * with it in all those positions). */
static void features_assert(const struct variant *v, const struct features *f, const struct reference_stats *m,
                            const char *where)
{
    for (int k = 1; k <= f->curved_steps; k++)
        ck_assert_msg(m->curved_stops[k], "%s %s: no curved path ended by a piece at step %d", v->name, where, k);
    ck_assert_msg(!f->curved_capture || m->curved_captures, "%s %s: no curved capture", v->name, where);
    ck_assert_msg(!f->path || m->path_blocked, "%s %s: no crooked, bent or joined path cut short by a piece", v->name,
                  where);
    ck_assert_msg(!f->path_capture || m->path_captures, "%s %s: no capture along a path", v->name, where);
    ck_assert_msg(!f->hop || (m->hop_captures[0] && m->hop_captures[1]),
                  "%s %s: hop captures: %ld over an own screen, %ld over an enemy screen", v->name, where,
                  m->hop_captures[0], m->hop_captures[1]);
    ck_assert_msg(!f->divergent || m->divergent_captures, "%s %s: no capture by a divergent piece", v->name, where);
    ck_assert_msg(!f->centreward || (m->centreward_refused && m->centreward_central),
                  "%s %s: centreward: %ld leaps refused, %ld moves on the central file", v->name, where,
                  m->centreward_refused, m->centreward_central);
    ck_assert_msg(!f->promo_limit || (m->promotions_refused && m->promotions_blocked),
                  "%s %s: promotion limit: %ld types refused, %ld moves left without a type", v->name, where,
                  m->promotions_refused, m->promotions_blocked);
    ck_assert_msg(!f->promo_limit || !f->limit_inside || m->promotions_refused_inside,
                  "%s %s: no promotion refused by pieces inside compounds", v->name, where);
    ck_assert_msg(!f->fusion || (m->fusions && m->fusions_refused[0]),
                  "%s %s: fusion: %ld fusions, %ld friendly simple pieces reached that do not fuse", v->name,
                  where, m->fusions, m->fusions_refused[0]);
    ck_assert_msg(!f->fusion || !f->fission || (m->fusions_refused[1] && m->fusions_refused[2]),
                  "%s %s: fusion: %ld friendly compounds reached by a simple piece, %ld friendly pieces reached "
                  "by a compound", v->name, where, m->fusions_refused[1], m->fusions_refused[2]);
    ck_assert_msg(!f->fission || (m->fissions && m->fissions_refused),
                  "%s %s: fission: %ld moves, %ld occupied cells reached by a component", v->name, where,
                  m->fissions, m->fissions_refused);
    ck_assert_msg(!f->castling || (m->castles && m->castles_blocked && m->castles_attacked),
                  "%s %s: castling: %ld generated, %ld blocked, %ld refused for an attack", v->name, where,
                  m->castles, m->castles_blocked, m->castles_attacked);
}

/* Plays a random game, comparing every position and, at the end, every unmake; counts what the
 * reference met on the way, and the fusions, fissions and castlings played (kinds[KIND_...]). */
/* Three players: both generators resolve the turn (eliminations) and must agree on whether the
 * game goes on; *removed is what the engine's position_unresolve needs. */
static bool turn_resolve(struct game *g, struct setup *s, int *removed, const char *ctx)
{
    struct reference_resolution r;
    enum turn_end end;
    *removed = g->ops->position_resolve(g->pos, &end);
    if (g->v->nplayers < 3)
        return true;   /* mate and stalemate end two-player games; both generators then have no move */
    bool plays = reference_resolve(g->v, s, &r);
    ck_assert_msg(plays == (end == TURN_PLAYS), "%s (%d-bit) after %s: the engine's turn resolution ends %d",
                  g->v->name, g->ops->bits, ctx, (int)end);
    return plays;
}

static void game_play_random(const struct variant *v, bool wide, struct reference_stats *met, long *kinds)
{
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    struct game g;
    char err[256], ctx[1200] = "the start";
    struct setup s, setups[GAME_PLIES];
    uint64_t keys[GAME_PLIES];
    move_t played[GAME_PLIES];
    int removed[GAME_PLIES];
    test_game(&g, v->name, NULL, wide);
    ck_assert(setup_from_fen(&s, v, v->start_fen, err, sizeof err));
    int plies = 0;
    bool plays = turn_resolve(&g, &s, &removed[0], ctx);
    for (;;) {
        state_compare(&g, &s, ctx);
        int n = position_compare(&g, &s, ref, fast);
        reference_count(v, &s, met);
        if (!n || !plays || plies == GAME_PLIES - 1)
            break;
        const char *text = ref[move_choose(v, &s, ref, n)];
        kinds[move_kind(v, &s, text)]++;
        context_set(ctx, sizeof ctx, v, &s, text);
        setups[plies] = s;
        keys[plies] = g.ops->position_key(g.pos);
        played[plies] = fast_find(fast, n, text);
        g.ops->position_make(g.pos, played[plies++]);
        ck_assert(reference_make(v, &s, text));
        plays = turn_resolve(&g, &s, &removed[plies], ctx);
    }
    while (plies--) {
        g.ops->position_unresolve(g.pos, removed[plies + 1]);
        g.ops->position_unmake(g.pos, played[plies]);
        ck_assert_msg(g.ops->position_key(g.pos) == keys[plies], "%s (%d-bit): unmake does not restore the key",
                      v->name, g.ops->bits);
        state_compare(&g, &setups[plies], "unmake");
    }
    game_free(&g);
}

START_TEST(test_random_games)
{
    const struct variant *v = NULL;
    bool wide = false;
    loop_pair(_i, &v, &wide);
    struct reference_stats met = { 0 };
    long played[KIND_CASTLING + 1] = { 0 };
    rng_seed_for(v, wide, 1);
    /* A sampled run plays on, up to the full count, until a castling has been played: few games have one.
     * The big boards are not sampled, so their count is already full. */
    int games = (int)work(v, GAMES, 2), most = test_wide_only(v) ? games : GAMES * scale();
    for (int k = 0; k < games || (k < most && v->ncastles && !played[KIND_CASTLING]); k++)
        game_play_random(v, wide, &met, played);
    /* The games reach what the armies of the start can do. */
    char err[256];
    struct setup start;
    bool present[MAX_TYPES] = { false };
    ck_assert(setup_from_fen(&start, v, v->start_fen, err, sizeof err));
    for (int c = 0; c < v->geo.ncells; c++)
        if (start.piece[c])
            present[piece_type(start.piece[c])] = true;
    struct features f = features_of(v, present);
    /* Promotions are too rare to hit a limit, and attacks on a castling royal's way too rare to count on
     * (the random placements count them); castling itself must be played. */
    f.promo_limit = false;
    f.castling = false;
    features_assert(v, &f, &met, "random games");
    /* The engine's position after them was compared with the reference's (make and unmake). */
    ck_assert_msg(!f.fusion || played[KIND_FUSION], "%s: no fusion played in the random games", v->name);
    ck_assert_msg(!f.fission || played[KIND_FISSION], "%s: no fission played in the random games", v->name);
    ck_assert_msg(!v->ncastles || played[KIND_CASTLING], "%s: no castling played in the random games", v->name);
}
END_TEST

static bool piece_place(const struct variant *v, struct setup *s, int colour, int type, int cell)
{
    if (cell == CELL_NONE || s->piece[cell] || (v->piece[type].pawn && reference_in_zone(v, colour, type, cell)))
        return false;
    s->piece[cell] = (unsigned char)piece_make(colour, type);
    return true;
}

static int cell_step(const struct variant *v, int cell, struct vec d)
{
    return cell == CELL_NONE ? CELL_NONE : geo_cell(&v->geo, v->geo.q[cell] + d.q, v->geo.r[cell] + d.r);
}

static struct vec leap_vec(const struct variant *v, int player, const struct leap *lp)
{
    return geo_rotate((struct vec){ lp->dq, lp->dr }, v->rotation[player]);
}

/* A random type of the player's army that `want` accepts, or -1. */
static int type_random(const struct variant *v, int player, bool (*want)(const struct piece_def *))
{
    int types[MAX_TYPES], n = 0;
    for (int t = 0; t < v->ntypes; t++)
        if (want(&v->piece[t]) && v->piece[t].army == v->army[player])
            types[n++] = t;
    return n ? types[rng_below(n)] : -1;
}

static bool is_plain(const struct piece_def *d) { return !d->royal; }
static bool is_double_stepper(const struct piece_def *d) { return d->double_step; }
static bool is_ep_pawn(const struct piece_def *d) { return d->en_passant; }
static bool is_pawn(const struct piece_def *d) { return d->pawn; }

/* What the placements covered, so that a test that stops exercising a rule fails. */
struct coverage {
    int positions, checks, promotions, en_passant, eliminations, castles;
    struct reference_stats met; /* what the reference's generator met (reference.h) */
};

/* The army's royal on its castling cell and, each with its right, most of the rooks on theirs (the
 * pieces that start there; a rook's right covers every rule it castles by); false if the royal's cell
 * is taken. */
static bool placement_castling_army(const struct variant *v, struct setup *s, int player)
{
    struct setup start;
    char err[256];
    ck_assert(setup_from_fen(&start, v, v->start_fen, err, sizeof err));
    if (!piece_place(v, s, player, variant_royal_type(v, player), v->castle[player][0].royal))
        return false;
    for (int i = 0; i < v->ncastles; i++) {
        int rook = v->castle[player][i].rook;
        if (rng_below(4) && !s->piece[rook]) {
            s->piece[rook] = start.piece[rook];
            for (int k = 0; k < v->ncastles; k++)
                if (v->castle[player][k].rook == rook)
                    s->castling |= castle_bit(player, k);
        }
    }
    return true;
}

/* Both royals and a few (often very few: checks and pins) pieces of any kind on random cells; with
 * castling, half the time most armies castling-ready, so that the other pieces block, attack and take. */
static void placement_random(const struct variant *v, struct setup *s)
{
    int ncells = v->geo.ncells;
    memset(s, 0, sizeof *s);
    s->ep = CELL_NONE;
    s->fullmove = 1;
    s->side = rng_below(v->nplayers);
    bool castling = v->ncastles && rng_below(2);
    for (int pl = 0; pl < v->nplayers; pl++)
        if (!(castling && rng_below(4) && placement_castling_army(v, s, pl)))
            while (!piece_place(v, s, pl, variant_royal_type(v, pl), rng_below(ncells)))
                ;
    int extra = rng_below(2) ? rng_below(5) : 5 + rng_below(26);
    for (int k = 0; k < extra; k++) {
        int pl = rng_below(v->nplayers);
        piece_place(v, s, pl, type_random(v, pl, is_plain), rng_below(ncells));
    }
}

/* Pawns of the side to move on double-step cells, each with an enemy pawn that could take it en
 * passant after its double step. */
static void placement_add_double_steps(const struct variant *v, struct setup *s)
{
    int cells[MAX_CELLS], ncells = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        if (v->double_cell[s->side][c])
            cells[ncells++] = c;
    /* The taker: the next army of the same kind (with different armies not the next army). */
    int enemy = (s->side + 1) % v->nplayers;
    while (v->army[enemy] != v->army[s->side])
        enemy = (enemy + 1) % v->nplayers;
    int type = type_random(v, s->side, is_double_stepper), enemy_type = type_random(v, enemy, is_ep_pawn);
    const struct piece_def *d = &v->piece[type], *e = &v->piece[enemy_type];
    for (int k = 1 + rng_below(3); k > 0; k--) {
        int from = cells[rng_below(ncells)];
        const struct leap *step = &d->leaps[rng_below(d->nleaps)];
        const struct leap *take = &e->leaps[rng_below(e->nleaps)];
        if (!(step->mode & MODE_MOVE) || !(take->mode & MODE_CAPTURE) || !piece_place(v, s, s->side, type, from))
            continue;
        struct vec w = leap_vec(v, enemy, take);
        int passed = cell_step(v, from, leap_vec(v, s->side, step));
        piece_place(v, s, enemy, enemy_type, cell_step(v, passed, (struct vec){ -w.q, -w.r }));
    }
}

/* Places a piece where it does not attack the royal of the side that just moved (so that the engine
 * accepts the position); returns whether it found such a cell. */
static bool piece_place_quiet(const struct variant *v, struct setup *s, int colour, int type)
{
    for (int tries = 0; tries < 100; tries++) {
        int cell = rng_below(v->geo.ncells);
        if (!piece_place(v, s, colour, type, cell))
            continue;
        if (reference_fen_accepted(v, s))
            return true;
        s->piece[cell] = 0;
    }
    return false;
}

/* A piece that counts for the type under the promotion limit: the type itself or, half the time where
 * compounds hold it (Fusion), one of those, so that limits are also reached inside compounds. */
static int limit_holder(const struct variant *v, int type)
{
    int holders[MAX_TYPES], n = 0;
    for (int t = 0; t < v->ntypes; t++)
        if (memchr(v->component[t], type + 1, sizeof v->component[t]))
            holders[n++] = t;
    return n && rng_below(2) ? holders[rng_below(n)] : type;
}

/* The limit reached for one promotion type of the side to move or, half the time, for all of them, and
 * a pawn of that side one step before its zone. */
static void placement_add_promotion_limit(const struct variant *v, struct setup *s)
{
    bool all = rng_below(2);
    int one = v->promo[rng_below(v->npromo)];
    for (int k = 0; k < v->npromo; k++)
        for (int n = 0; (all || v->promo[k] == one) && n < v->promo_limit; n++)
            if (!piece_place_quiet(v, s, s->side, limit_holder(v, v->promo[k])))
                return;
    int pawn = type_random(v, s->side, is_pawn);
    const struct piece_def *d = &v->piece[pawn];
    for (int tries = 0; tries < 1000; tries++) {
        int from = rng_below(v->geo.ncells);
        const struct leap *step = &d->leaps[rng_below(d->nleaps)];
        int to = cell_step(v, from, leap_vec(v, s->side, step));
        if ((step->mode & MODE_MOVE) && to != CELL_NONE && !s->piece[to] &&
            reference_in_zone(v, s->side, pawn, to) && piece_place(v, s, s->side, pawn, from))
            break;
    }
}

/* Plays a random double step of the reference's, if there is one. */
static bool placement_double_step(const struct variant *v, struct setup *s)
{
    static move_text moves[REFERENCE_MAX_MOVES];
    int n = reference_moves(v, s, moves), found = 0;
    struct setup after[8];
    for (int i = 0; i < n && found < 8; i++) {
        int from, to;
        text_cells(v, moves[i], &from, &to);
        const struct piece_def *d = &v->piece[piece_type(s->piece[from])];
        if (!d->double_step || geo_distance((struct vec){ v->geo.q[from], v->geo.r[from] },
                                            (struct vec){ v->geo.q[to], v->geo.r[to] }) != 2)
            continue;
        after[found] = *s;
        ck_assert(reference_make(v, &after[found], moves[i]));
        found += after[found].ep != CELL_NONE;
    }
    if (!found)
        return false;
    *s = after[rng_below(found)];
    /* Different armies: the armies of other kinds move (the double step stays open) until one of its
     * own kind is to move, the one that may take it. */
    int stepper = piece_colour(s->piece[s->ep_victim]);
    while (v->army[s->side] != v->army[stepper]) {
        int k = reference_moves(v, s, moves), from, to;
        if (!k)
            return false;
        const char *m = moves[rng_below(k)];
        text_cells(v, m, &from, &to);
        /* No turn resolution runs here, so a move that takes a royal would leave its army's other pieces
         * without one, a position no game reaches. */
        if ((s->piece[to] && v->piece[piece_type(s->piece[to])].royal) || !reference_make(v, s, m) ||
            s->ep == CELL_NONE)
            return false;
        stepper = piece_colour(s->piece[s->ep_victim]);
    }
    return true;
}

/* Every engine move made and unmade keeps the key consistent; one random move also matches the
 * reference's result. */
static void moves_make_unmake(const struct game *g, const struct setup *s, move_text *ref, int nref,
                              const struct fast_move *fast)
{
    uint64_t key = g->ops->position_key(g->pos);
    /* The lists are equal here, so ref[i] is fast[i]. */
    for (int i = 0; i < nref; i++) {
        g->ops->position_make(g->pos, fast[i].m);
        ck_assert_msg(g->ops->position_key(g->pos) == g->ops->position_compute_key(g->pos),
                      "%s (%d-bit): wrong incremental key after %s", g->v->name, g->ops->bits, fast[i].text);
        g->ops->position_unmake(g->pos, fast[i].m);
        ck_assert_msg(g->ops->position_key(g->pos) == key, "%s (%d-bit): unmake %s does not restore the key",
                      g->v->name, g->ops->bits, fast[i].text);
    }
    state_compare(g, s, "make and unmake of every move");
    if (!nref)
        return;
    int i = move_choose(g->v, s, ref, nref);
    char ctx[1200];
    context_set(ctx, sizeof ctx, g->v, s, ref[i]);
    struct setup after = *s;
    ck_assert(reference_make(g->v, &after, ref[i]));
    g->ops->position_make(g->pos, fast[i].m);
    state_compare(g, &after, ctx);
    g->ops->position_unmake(g->pos, fast[i].m);
}

static void coverage_count(const struct variant *v, const struct setup *s, move_text *ref, int n,
                           struct coverage *cov)
{
    cov->positions++;
    cov->checks += reference_in_check(v, s, s->side);
    reference_count(v, s, &cov->met);
    for (int i = 0; i < n; i++) {
        int from, to;
        bool suffix = text_cells(v, ref[i], &from, &to);
        bool pawn = v->piece[piece_type(s->piece[from])].pawn;
        /* A suffix is a promotion only on a pawn's move (otherwise a fission). */
        cov->promotions += suffix && pawn;
        cov->en_passant += to == s->ep && pawn;
        cov->castles += move_kind(v, s, ref[i]) == KIND_CASTLING;
    }
}

/* Compares the position if the engine accepts it; it must refuse exactly when the side that just
 * moved is in check. */
static void placement_check(struct game *g, const struct setup *s, struct coverage *cov)
{
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    char fen[1024], err[256];
    setup_to_fen(s, g->v, fen, sizeof fen);
    bool accepted = game_set_position(g, fen, NULL, 0, err, sizeof err);
    ck_assert_msg(accepted == reference_fen_accepted(g->v, s), "%s (%d-bit) %s: engine %s it (%s)",
                  g->v->name, g->ops->bits, fen, accepted ? "accepts" : "refuses", accepted ? "" : err);
    if (!accepted)
        return;
    /* The engine's position starts its turn resolved (three players): so must the reference's. */
    struct setup resolved = *s;
    struct reference_resolution r;
    bool plays = g->v->nplayers < 3 || reference_resolve(g->v, &resolved, &r);
    cov->eliminations += g->v->nplayers < 3 ? 0 : r.neliminated;
    state_compare(g, &resolved, fen);
    /* A game already won or drawn has no next turn to compare. */
    if (!plays)
        return;
    int n = position_compare(g, &resolved, ref, fast);
    coverage_count(g->v, &resolved, ref, n, cov);
    moves_make_unmake(g, &resolved, ref, n, fast);
}

START_TEST(test_random_placements)
{
    const struct variant *v = NULL;
    bool wide = false;
    loop_pair(_i, &v, &wide);
    bool ep = type_random(v, 0, is_double_stepper) >= 0 && type_random(v, 0, is_ep_pawn) >= 0;
    struct game g;
    struct coverage cov = { 0 };
    test_game(&g, v->name, NULL, wide);
    rng_seed_for(v, wide, 1000);
    int want = (int)work(v, PLACEMENTS, 2);
    for (int k = 0; cov.positions < want && k < 4 * want; k++) {
        struct setup s;
        placement_random(v, &s);
        if (ep && rng_below(3) == 0) {
            placement_add_double_steps(v, &s);
            if (!reference_fen_accepted(v, &s) || !placement_double_step(v, &s))
                continue;
        } else if (v->promo_limit > 0 && rng_below(4) == 0) {
            placement_add_promotion_limit(v, &s);
        }
        placement_check(&g, &s, &cov);
    }
    ck_assert_msg(cov.positions == want && cov.checks > want / 20 && cov.promotions && (!ep || cov.en_passant),
                  "%s: too little covered: %d positions, %d in check, %d promotions, %d en passant", v->name,
                  cov.positions, cov.checks, cov.promotions, cov.en_passant);
    ck_assert_msg(v->nplayers < 3 || cov.eliminations, "%s: no army eliminated in the placements", v->name);
    ck_assert_msg(!v->ncastles || cov.castles, "%s: no legal castling in the placements", v->name);
    struct features f = features_of(v, NULL);
    features_assert(v, &f, &cov.met, "random placements");
    game_free(&g);
}
END_TEST

/* The enemy's piece of the type near the royal of the side to move, where a curved or hopping piece
 * may attack it: on one of its straight lines (half the time with a piece of the side between, a
 * hopper's screen), or a few steps away (a diagonal curved path of five steps goes up to ten); false
 * if the cell is taken. */
static bool place_near(const struct variant *v, struct setup *s, int enemy, int type)
{
    const struct geometry *g = &v->geo;
    int king = 0;
    while (s->piece[king] != piece_make(s->side, variant_royal_type(v, s->side)))
        king++;
    struct vec d = geo_straight(rng_below(NUM_STRAIGHT)), at = { g->q[king], g->r[king] };
    if (rng_below(2)) {
        int k = 2 + rng_below(4);
        if (!piece_place(v, s, enemy, type, cell_step(v, king, (struct vec){ k * d.q, k * d.r })))
            return false;
        int screen = 1 + rng_below(k - 1);
        int t = type_random(v, s->side, is_plain);
        if (t >= 0 && rng_below(2))
            piece_place(v, s, s->side, t, cell_step(v, king, (struct vec){ screen * d.q, screen * d.r }));
        return true;
    }
    int c = rng_below(g->ncells);
    return geo_distance((struct vec){ g->q[c], g->r[c] }, at) <= 1 + rng_below(8) && piece_place(v, s, enemy, type, c);
}

/* Curved and hopping attacks found from the tables (tables.curved_link, the paths the move generator
 * tests near them) against the reference's walked paths: the side to move's royal, one enemy curved or
 * hopping piece, the other royals and blockers of the side to move (0 to 40 of them) on random cells, the piece near
 * the royal;
 * whether the royal is attacked, and the legal moves, must agree, and the search's lists tested late
 * give those moves. Every such type of every variant in each width, attacked and not attacked many times. */
START_TEST(test_exotic_attacks)
{
    const struct variant *v = NULL;
    bool wide = false;
    loop_pair(_i, &v, &wide);
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    struct game g;
    test_game(&g, v->name, NULL, wide);
    rng_seed_for(v, wide, 3000);
    int ncells = v->geo.ncells, want = (int)work(v, 150, 2);
    for (int t = 0; t < v->ntypes; t++) {
        const struct piece_def *pd = &v->piece[t];
        if (pd->royal || !(pd->curved[MODE_CAPTURE] | pd->curved[MODE_BOTH] | pd->hop))
            continue;
        int attacked = 0, safe = 0;
        for (int k = 0; (attacked < want || safe < want) && k < 40 * want; k++) {
            struct setup s;
            memset(&s, 0, sizeof s);
            s.ep = CELL_NONE;
            s.fullmove = 1;
            s.side = rng_below(v->nplayers);
            int enemy = (s.side + 1 + rng_below(v->nplayers - 1)) % v->nplayers;
            if (v->army[enemy] != pd->army)
                continue;
            for (int pl = 0; pl < v->nplayers; pl++)
                while (!piece_place(v, &s, pl, variant_royal_type(v, pl), rng_below(ncells)))
                    ;
            while (!place_near(v, &s, enemy, t))
                ;
            for (int b = rng_below(2) ? rng_below(4) : rng_below(41); b > 0; b--) {
                int plain = type_random(v, s.side, is_plain);
                if (plain >= 0)
                    piece_place(v, &s, s.side, plain, rng_below(ncells));
            }
            struct reference_resolution r;
            char fen[1024], err[256];
            setup_to_fen(&s, v, fen, sizeof fen);
            if (!reference_fen_accepted(v, &s) || !game_set_position(&g, fen, NULL, 0, err, sizeof err)
                || (v->nplayers > 2 && !reference_resolve(v, &s, &r)))
                continue;
            bool check = reference_in_check(v, &s, s.side);
            ck_assert_msg(g.ops->position_in_check(g.pos) == check, "%s (%d-bit) %s: the engine says %s", v->name,
                          g.ops->bits, fen, check ? "not in check" : "in check");
            position_compare(&g, &s, ref, fast);
            /* The search's lists, tested late, too: here are its pins and checks. */
            int seen[2] = { 0, 0 };
            test_search_lists(&g, seen);
            check ? attacked++ : safe++;
        }
        ck_assert_msg(attacked >= want && safe >= want, "%s: %s attacked %d times, not %d times", v->name, pd->name,
                      attacked, safe);
    }
    game_free(&g);
}
END_TEST

/* One EPD line, "FEN ;D1 n ;D2 n ...": checks every count small enough for the reference. */
static int perft_line(const struct variant *v, const char *line, const char *where)
{
    char err[256];
    struct perft_epd e;
    struct setup s;
    ck_assert_msg(perft_epd_parse(line, &e, err, sizeof err), "%s: %s", where, err);
    ck_assert_msg(setup_from_fen(&s, v, e.fen, err, sizeof err), "%s: %s", where, err);
    int checked = 0;
    unsigned long long max = (unsigned long long)work(v, PERFT_MAX, 10);
    for (int i = 0; i < e.n; i++) {
        if (e.count[i] > max)
            continue;
        uint64_t have = reference_perft(v, &s, e.depth[i]);
        ck_assert_msg(have == e.count[i], "%s: %s depth %d: file says %llu, reference counts %llu", where, e.fen,
                      e.depth[i], (unsigned long long)e.count[i], (unsigned long long)have);
        checked++;
    }
    return checked;
}

static void perft_file(const char *dir, const char *file)
{
    char path[1024], variant[NAME_LEN], line[2048];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(variant, sizeof variant, "%.*s", (int)(strlen(file) - strlen(".epd")), file);
    const struct variant *v = test_variant(variant);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot read %s", path);
    int checked = 0;
    /* Counts above PERFT_MAX are left to the engine's own perft tests. */
    for (int n = 1; fgets(line, sizeof line, f); n++) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[strspn(line, " \t")] || line[0] == '#')
            continue;
        char where[1100];
        snprintf(where, sizeof where, "%s:%d", path, n);
        checked += perft_line(v, line, where);
    }
    fclose(f);
    ck_assert_msg(checked, "%s: no count small enough for the reference", path);
}

START_TEST(test_perft_files)
{
    const char *dir = getenv("PERFT_DIR") ? getenv("PERFT_DIR") : "tests/perft";
    DIR *d = opendir(dir);
    ck_assert_msg(d, "cannot open PERFT_DIR %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".epd"))
            perft_file(dir, e->d_name);
    }
    closedir(d);
}
END_TEST

/* Positions for the reference alone, their moves counted by hand from the rules (docs/variants.md), so that the reference
 * is trusted independently of the engine. A position is a list of words "Xcell": upper case White (the
 * first player), lower case Black. Without royals nothing is ever in check, so the lists are the
 * pieces' plain moves. */
static void hand_setup(const struct variant *v, struct setup *s, int side, const char *pieces)
{
    memset(s, 0, sizeof *s);
    s->ep = CELL_NONE;
    s->fullmove = 1;
    s->side = side;
    char word[16];
    for (int used; sscanf(pieces, "%15s%n", word, &used) == 1; pieces += used) {
        int len = 0, type = variant_type_of_letter(v, word[0]);
        int cell = geo_parse_cell(&v->geo, word + 1, &len);
        ck_assert_msg(type >= 0 && cell != CELL_NONE && !word[1 + len] && !s->piece[cell], "%s: bad word %s",
                      v->name, word);
        s->piece[cell] = (unsigned char)piece_make(isupper((unsigned char)word[0]) ? 0 : 1, type);
    }
}

static int text_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The words of a list, sorted and joined by single spaces. */
static void words_sorted(const char *in, char *out, size_t len)
{
    static move_text words[REFERENCE_MAX_MOVES];
    int n = 0;
    for (int used; n < REFERENCE_MAX_MOVES && sscanf(in, "%15s%n", words[n], &used) == 1; in += used)
        n++;
    qsort(words, (size_t)n, sizeof *words, text_cmp);
    *out = 0;
    for (int i = 0; i < n; i++)
        text_append(out, len, words[i]);
}

/* The reference's legal moves from the cell, each as its target and promotion suffix ("f11d"), sorted. */
static void hand_targets(const struct variant *v, const struct setup *s, const char *from, char *out, size_t len)
{
    static move_text moves[REFERENCE_MAX_MOVES];
    char list[4096] = "";
    int n = reference_moves(v, s, moves);
    for (int i = 0; i < n; i++) {
        int f, t;
        text_cells(v, moves[i], &f, &t);
        if (!strcmp(v->geo.name[f], from))
            text_append(list, sizeof list, moves[i] + strlen(from));
    }
    words_sorted(list, out, len);
}

static void hand_expect(const struct variant *v, const struct setup *s, const char *from, const char *want)
{
    char have[4096], sorted[4096];
    hand_targets(v, s, from, have, sizeof have);
    words_sorted(want, sorted, sizeof sorted);
    ck_assert_msg(!strcmp(have, sorted), "%s: moves from %s:\n  hand:     %s\n  reference:%s", v->name, from, sorted,
                  have);
}

/* The moves from the cell in the position (side to move first) are exactly the listed targets. */
static void hand_check(const char *variant, int side, const char *pieces, const char *from, const char *want)
{
    const struct variant *v = test_variant(variant);
    struct setup s;
    hand_setup(v, &s, side, pieces);
    hand_expect(v, &s, from, want);
}

/* Whether the reference lists the move (side to move first) in the position. */
static bool hand_has(const char *variant, int side, const char *pieces, const char *move)
{
    static move_text moves[REFERENCE_MAX_MOVES];
    const struct variant *v = test_variant(variant);
    struct setup s;
    hand_setup(v, &s, side, pieces);
    int n = reference_moves(v, &s, moves);
    for (int i = 0; i < n; i++)
        if (!strcmp(moves[i], move))
            return true;
    return false;
}

/* The piece on the cell, as a hand word ("Dd8", "uf6") or "-" for an empty cell. */
static const char *hand_piece(const struct variant *v, const struct setup *s, const char *cell)
{
    static char word[16];
    int len, p = s->piece[geo_parse_cell(&v->geo, cell, &len)];
    if (!p)
        return "-";
    char letter = v->piece[piece_type(p)].letter;
    snprintf(word, sizeof word, "%c%s", piece_colour(p) ? tolower((unsigned char)letter) : letter, cell);
    return word;
}

/* Plays the move in the position (White to move) and checks the two cells it changes and the
 * halfmove clock (it starts at 0). */
static void hand_make(const char *variant, const char *pieces, const char *move, const char *from_after,
                      const char *to_after, int halfmove)
{
    const struct variant *v = test_variant(variant);
    struct setup s;
    hand_setup(v, &s, 0, pieces);
    ck_assert_msg(reference_make(v, &s, move), "%s: %s refused in %s", variant, move, pieces);
    int from, to;
    text_cells(v, move, &from, &to);
    ck_assert_str_eq(hand_piece(v, &s, v->geo.name[from]), from_after);
    ck_assert_str_eq(hand_piece(v, &s, v->geo.name[to]), to_after);
    ck_assert_int_eq(s.halfmove, halfmove);
    ck_assert_int_eq(s.side, 1);
}

static bool hand_in_check(const char *variant, const char *pieces, int player)
{
    const struct variant *v = test_variant(variant);
    struct setup s;
    hand_setup(v, &s, 0, pieces);
    return reference_in_check(v, &s, player);
}

/* The cells where a pawn-like type of the player must promote, sorted. */
static void hand_zone(const struct variant *v, int player, char letter, char *out, size_t len)
{
    char list[1024] = "";
    for (int c = 0; c < v->geo.ncells; c++)
        if (reference_in_zone(v, player, variant_type_of_letter(v, letter), c))
            text_append(list, sizeof list, v->geo.name[c]);
    words_sorted(list, out, len);
}

START_TEST(test_by_hand)
{
    /* Curved paths from the centre f6 of the empty 91-cell board, first step Oi, turning one way: Oi, then
     * Oi + O(i+1) = Di, then 2 O(i+1), D(i+1), O(i+2); the other way mirrors it. A Finch reaches every cell
     * within two steps: 6 + 12 = 18. */
    hand_check("mishling", 0, "Ff6", "f6", "f7 e6 e5 f5 g5 g6  e7 d5 e4 g4 h5 g7  f8 d6 d4 f4 h4 h6");
    /* A Rabbi: Di, Di + D(i+1) = 3 O(i+1), 2 D(i+1), 3 O(i+2), D(i+2): 6 diagonal neighbours, 6 cells three
     * orthogonal steps away, 6 cells two diagonal steps away: 18. */
    hand_check("mishling", 0, "If6", "f6", "e7 d5 e4 g4 h5 g7  f9 c6 c3 f3 i3 i6  d8 b4 d2 h2 k4 h8");
    /* From the corner f1 only D0 (e2) and D5 (g2) stay on the board. D0 D1: e2 c1, then off the board;
     * D0 D5 D4 D3: e2 f4 h3 i1; D5 D0 D1 D2: g2 f4 d3 c1; D5 D4: g2 i1. 7 targets. */
    hand_check("mishling", 0, "If1", "f1", "c1 d3 e2 f4 g2 h3 i1");

    /* The star board. A Rabbi (cB5) on the centre g4 reaches 18 cells as on f6 above; the only paths to c2
     * are D0 D1 D2 (f6 d7 c2) and D2 D1 D0 (f3 d4 c2). Own Rooks on their 2nd cells d7 and d4 leave 15
     * targets; enemy ones 17 (taken, but the paths still end there). */
    hand_check("flatstar", 0, "Ig4 Rd7 Rd4", "g4", "f6 e5 f3 h3 i5 h6  g7 g1 k4 k7  e8 e2 i2 l2 i8");
    hand_check("flatstar", 0, "Ig4 rd7 rd4", "g4", "f6 e5 f3 h3 i5 h6  g7 g1 k4 k7  e8 e2 i2 l2 i8  d7 d4");
    /* The star's gaps: a Rabbi on the tip a1 can start only along D4 (c2): D4 D5 (d7) and D4 D3 (d4) leave
     * the board at their 3rd step. D5 D4 D3 would pass the off-board (-5,4) and re-enter at d7 and e5; a
     * path stops at the edge, so e5 is no target. */
    hand_check("flatstar", 0, "Ia1", "a1", "c2 d4 d7");
    /* A Flatstar Finch (cR4) on the tip d10: only O3 (d9) and O4 (e9) stay on the board; O3 O4 O5 gives
     * d9 e8 f8 (the 4th step leaves), O4 O3 O2 gives e9 e8 d8, O3 O2 and O4 O5 leave at the 2nd step. */
    hand_check("flatstar", 0, "Fd10", "d10", "d8 d9 e8 e9 f8");

    /* The Sling (move:B capture:hB) on g4, whose diagonals run 3 cells each to the star's tips. D0: own
     * screen f6, e8 empty, takes d10. D1: enemy screen e5, c2 empty, takes a1. D2: own f3 and d1, nothing.
     * D3: screen h3, takes i2 (the first piece beyond), not k1. D4 and D5 empty: i5 l2 n1, h6 i8 k10. It
     * never moves onto or takes its screens. */
    hand_check("flatstar", 0, "Lg4 Rf6 sd10 se5 sa1 Rf3 Rd1 sh3 si2 sk1", "g4", "d10 a1 i2  i5 l2 n1 h6 i8 k10");
    /* Without a screen it cannot take: along D0 f6 e8, and d10 is only a screen with nothing beyond. */
    hand_check("flatstar", 0, "Lg4 sd10", "g4", "f6 e8  e5 c2 a1  f3 e2 d1  h3 i2 k1  i5 l2 n1  h6 i8 k10");
    /* Attacks: a Sling on e8 does not attack the General on g4 over the empty f6; a screen of either colour
     * there makes it check. */
    ck_assert(!hand_in_check("flatstar", "Gg4 le8", 0));
    ck_assert(hand_in_check("flatstar", "Gg4 le8 Rf6", 0));
    ck_assert(hand_in_check("flatstar", "Gg4 le8 rf6", 0));
    /* A Finch on d4 reaches f6 (two O5 steps away) only along O0 O5 O4 (d5 e6 f6) and O4 O5 O0 (e4 f5 f6):
     * blocking both at their first cell ends the attack, either one alone does not. */
    ck_assert(!hand_in_check("mishling", "Kf6 fd4 Pd5 Pe4", 0));
    ck_assert(hand_in_check("mishling", "Kf6 fd4 Pe4", 0));
    ck_assert(hand_in_check("mishling", "Kf6 fd4 Pd5", 0));

    /* Divergent pieces on f1, enemy Rooks on f3 e1 h1 d3 i4, an own Rook on g2. The Waitress moves as a
     * Rook (f2, g1; e1 blocks O1) and takes as a Unicorn (d3 along D0; g2 blocks D5); the Contrawaitress
     * moves as a Unicorn (e2) and takes as a Rook (f3, e1, h1). */
    hand_check("waitress", 0, "Wf1 rf3 re1 rh1 rd3 ri4 Rg2", "f1", "f2 g1 d3");
    hand_check("waitress", 0, "Xf1 rf3 re1 rh1 rd3 ri4 Rg2", "f1", "e2 f3 e1 h1");
    /* The Shammes on f6 moves as a Finch and takes as a Rabbi; enemies on f7 (O0) and e7 (D0). It moves to
     * the 16 other cells within two steps (f8 by O5 O0 O1: g6 g7 f8; d6 by O2 O1 O0: e5 d5 d6) and takes e7 (D0
     * of a Rabbi), not f7 (no Rabbi path reaches it). */
    hand_check("shammes", 0, "Mf6 rf7 re7", "f6", "e6 e5 f5 g5 g6  d5 e4 g4 h5 g7  f8 d6 d4 f4 h4 h6  e7");
    /* The Contrashammes moves as a Rabbi (its 18 targets less the occupied e7) and takes as a Finch: f7
     * (O0) and e7 (O1 O0: e6 e7; the path O0 O1 is blocked at f7). */
    hand_check("shammes", 0, "Nf6 rf7 re7", "f6",
               "d5 e4 g4 h5 g7  f9 c6 c3 f3 i3 i6  d8 b4 d2 h2 k4 h8  f7 e7");

    /* Promotion limit 3 (mishling: D C R U S F I). White has three Rooks and three Finches: the Broker's
     * f10-f11 offers only D C U S I; Black's three Cohens do not count. */
    hand_check("mishling", 0, "Pf10 Ra1 Rb1 Rc1 Fd1 Fe1 Fg1 cl1 ck1 ci1", "f10", "f11d f11c f11u f11s f11i");
    /* mishling-4c (D C H J): three each of D C H and two J leave only J; a third J leaves nothing, and the
     * Broker may not move to f11 at all. */
    hand_check("mishling-4c", 0, "Pf10 Da1 Db1 Dc1 Cd1 Ce1 Cg1 Hh1 Hi1 Hk1 Ja2 Jb2", "f10", "f11j");
    hand_check("mishling-4c", 0, "Pf10 Da1 Db1 Dc1 Cd1 Ce1 Cg1 Hh1 Hi1 Hk1 Ja2 Jb2 Jc2", "f10", "");
    /* A pawn attacks where it could not promote: with every type at the limit the Broker on e9 can
     * neither step to e10 nor take on f11, yet Black's Grandduke on f11 is in check. */
    hand_check("mishling-4c", 0, "Pe9 kf11 Da1 Db1 Dc1 Cd1 Ce1 Cg1 Hh1 Hi1 Hk1 Ja2 Jb2 Jc2", "e9", "");
    ck_assert(hand_in_check("mishling-4c", "Pe9 kf11 Da1 Db1 Dc1 Cd1 Ce1 Cg1 Hh1 Hi1 Hk1 Ja2 Jb2 Jc2", 1));

    /* The Flatstar Point (W@0,60,-60 centreward): promotion cells as docs/variants.md lists them. */
    const struct variant *flat = test_variant("flatstar");
    char zone[1024];
    hand_zone(flat, 0, 'P', zone, sizeof zone);
    ck_assert_str_eq(zone, " d10 e9 f8 g7 h8 i9 k10");
    hand_zone(flat, 1, 'P', zone, sizeof zone);
    ck_assert_str_eq(zone, " d1 e1 f1 g1 h1 i1 k1");
    /* On the central file only along it (moving or taking); off it, forward or toward the centre. */
    hand_check("flatstar", 0, "Pg4", "g4", "g5");
    hand_check("flatstar", 0, "Pg4 pg5 pf5 ph5", "g4", "g5");
    hand_check("flatstar", 0, "Pc3", "c3", "d7");
    /* The double step only along the file (double@0): e4-e6, not e4-g4; the centre Point g3 has none. */
    hand_check("flatstar", 0, "Pe4", "e4", "e5 e6 f4");
    hand_check("flatstar", 0, "Pg3", "g3", "g4");
    /* En passant: after e4-e6, Black's Point on d6 (the next file out) moves to the passed e5 and takes e6;
     * the one on f5 could only reach e5 by leaving the centre, so it cannot. */
    struct setup s;
    hand_setup(flat, &s, 0, "Pe4 pd6 pf5");
    ck_assert(reference_make(flat, &s, "e4e6"));
    ck_assert_str_eq(flat->geo.name[s.ep], "e5");
    hand_expect(flat, &s, "d6", "d5 e5");
    hand_expect(flat, &s, "f5", "f4 g4");
    ck_assert(reference_make(flat, &s, "d6e5"));
    int len;
    ck_assert(!s.piece[geo_parse_cell(&flat->geo, "e6", &len)]);
    ck_assert_int_eq(s.piece[geo_parse_cell(&flat->geo, "e5", &len)],
                     piece_make(1, variant_type_of_letter(flat, 'P')));
}
END_TEST

/* Fusion (variants.md, mishling-fusion: R+U=D F+I=C R+F=H U+I=J R+I=V U+F=E, limit 6 per component). */
START_TEST(test_by_hand_fusion)
{
    const char *fusion = "mishling-fusion";
    /* A Rook on f2 of the otherwise empty board has 15 cells: f3 f4 (up to the piece on f5), f1, e2 d2 c2 b2
     * a2 (O1), e1 (O2), g2 h2 i2 k2 l2 (O5), g1 (O4). With a friendly Unicorn on f5 it also fuses there: 16.
     * White or Black alike. */
    const char *rook15 = "f3 f4  f1  e2 d2 c2 b2 a2  e1  g2 h2 i2 k2 l2  g1";
    hand_check(fusion, 0, "Rf2 Uf5", "f2", "f3 f4 f5  f1  e2 d2 c2 b2 a2  e1  g2 h2 i2 k2 l2  g1");
    hand_check(fusion, 1, "rf2 uf5", "f2", "f3 f4 f5  f1  e2 d2 c2 b2 a2  e1  g2 h2 i2 k2 l2  g1");
    /* No fusion onto a Rook (a pair of one type), a Sennight (fuses with nothing) or a compound (a Duchess
     * R+U, a Cohen F+I, although R+F and R+I fuse): the 15 cells. */
    hand_check(fusion, 0, "Rf2 Rf5", "f2", rook15);
    hand_check(fusion, 0, "Rf2 Sf5", "f2", rook15);
    hand_check(fusion, 0, "Rf2 Df5", "f2", rook15);
    hand_check(fusion, 0, "Rf2 Cf5", "f2", rook15);
    /* Only as it would capture: the Sennight on f4 hides the Unicorn (14 cells). */
    hand_check(fusion, 0, "Rf2 Sf4 Uf5", "f2", "f3  f1  e2 d2 c2 b2 a2  e1  g2 h2 i2 k2 l2  g1");
    /* A compound fuses no further, with a simple piece or with a compound. */
    ck_assert(!hand_has(fusion, 0, "Df2 Ff5", "f2f5"));
    ck_assert(!hand_has(fusion, 0, "Df2 Cf5", "f2f5"));
    /* The result: the compound on the target, the start empty; not a capture, so the clock goes on. */
    hand_make(fusion, "Rf2 Uf5", "f2f5", "-", "Df5", 1);
    hand_make(fusion, "Uf6 Rd8", "f6d8", "-", "Dd8", 1);
    /* A Finch reaches f8, two steps up the file from f6, only by O5 O0 O1 (g6 g7 f8) and O1 O0 O5 (e6 e7
     * f8): it fuses with the Rabbi there into a Cohen while either path is clear. */
    ck_assert(hand_has(fusion, 0, "Ff6 If8 Sg7", "f6f8"));
    ck_assert(!hand_has(fusion, 0, "Ff6 If8 Sg7 Se7", "f6f8"));
    hand_make(fusion, "Ff6 If8 Sg7", "f6f8", "-", "Cf8", 1);

    /* Fission. A Duchess (R+U) on f6 with its own Finch on f9, Black's Rook on f3 and Unicorn on d8. As a
     * whole it has 25 rook moves (f7 f8, f5 f4 f3, and the full lines O1 O2 O4 O5 of 5 cells each) and 12
     * unicorn moves (two cells along each diagonal, d8 taken). The Rook alone goes to the 24 of those
     * cells that are empty (not f3), suffix r; the Unicorn alone to 11 (not d8), suffix u. 72 moves, none
     * onto f9 (no fusion of a compound, no fission onto a friendly piece). */
    hand_check(fusion, 0, "Df6 Ff9 rf3 ud8", "f6",
               "f7 f8 f5 f4 f3  e6 d6 c6 b6 a6  e5 d4 c3 b2 a1  g5 h4 i3 k2 l1  g6 h6 i6 k6 l6 "
               "e7 d8 d5 b4 e4 d2 g4 h2 h5 k4 g7 h8 "
               "f7r f8r f5r f4r  e6r d6r c6r b6r a6r  e5r d4r c3r b2r a1r  g5r h4r i3r k2r l1r  g6r h6r i6r k6r l6r "
               "e7u d5u b4u e4u d2u g4u h2u h5u k4u g7u h8u");
    /* The component that moves lands alone, the other stays; not a capture. */
    hand_make(fusion, "Df6 Ff9 rf3 ud8", "f6f8r", "Uf6", "Rf8", 1);
    hand_make(fusion, "Df6 Ff9 rf3 ud8", "f6d5u", "Rf6", "Ud5", 1);
    /* A Finchrider (R + Finch): f7 is a whole move and a fission of each component, three moves. */
    ck_assert(hand_has(fusion, 0, "Hf6", "f6f7") && hand_has(fusion, 0, "Hf6", "f6f7r") &&
              hand_has(fusion, 0, "Hf6", "f6f7f"));
    /* Legality: the Duchess on f3 is pinned to its Grandduke on f1 by the Rook on f8. As a whole it stays on
     * the file: f2 f4 f5 f6 f7 f8 (6). A component alone leaves the other on f3, still blocking: the Rook
     * to its 19 empty cells (f4..f7, f2, e3 d3 c3 b3 a3, e2 d1, g2 h1, g3 h3 i3 k3 l3), the Unicorn to its
     * 14 (e4 d5 c6 b7, d2 b1, e1, g1, h2 k1, g4 h5 i6 k7). 39 moves. */
    hand_check(fusion, 0, "Kf1 Df3 rf8", "f3",
               "f2 f4 f5 f6 f7 f8 "
               "f4r f5r f6r f7r f2r e3r d3r c3r b3r a3r e2r d1r g2r h1r g3r h3r i3r k3r l3r "
               "e4u d5u c6u b7u d2u b1u e1u g1u h2u k1u g4u h5u i6u k7u");

    /* Promotion (D C R U S F I, at most 6 of each component, counted alone and inside compounds). Three
     * Duchesses and three Finchriders make 6 Rooks (3 Unicorns, 3 Finches): no D, no R; 5 types. */
    hand_check(fusion, 0, "Pf10 Da1 Db1 Dc1 Hd1 He1 Hg1", "f10", "f11c f11u f11s f11f f11i");
    /* Three Cohens more make 6 Finches: no C, no F either; 3 types. */
    hand_check(fusion, 0, "Pf10 Da1 Db1 Dc1 Hd1 He1 Hg1 Ch1 Ci1 Ck1", "f10", "f11u f11s f11i");
    /* Four Unicorns and two Duchesses: 6 Unicorns, no U and no D; Black's compounds do not count: 5 types. */
    hand_check(fusion, 0, "Pf10 Ua1 Ub1 Uc1 Ud1 Da2 Db2 dk1 hl1 cl2", "f10", "f11c f11r f11s f11f f11i");
    /* Six Duchesses, six Cohens and six Sennights: every type at the limit, the Broker cannot move. */
    hand_check(fusion, 0, "Pf10 Da1 Db1 Dc1 Dd1 De1 Dg1 Ca2 Cb2 Cc2 Cd2 Ce2 Cg2 Sa3 Sb3 Sc3 Sd3 Se3 Sg3", "f10", "");
    /* mishling-4c-fusion (compounds only: D C H J): six simple Rooks leave C and J; five Rabbis and a
     * Vicerranger (R+I) make 6 Rabbis and leave D and H. */
    hand_check("mishling-4c-fusion", 0, "Pf10 Ra1 Rb1 Rc1 Rd1 Re1 Rg1", "f10", "f11c f11j");
    hand_check("mishling-4c-fusion", 0, "Pf10 Ia1 Ib1 Ic1 Id1 Ie1 Va2", "f10", "f11d f11h");
}
END_TEST

/* Divergent Fusion (variants.md, waitress-fusion and shammes-fusion, each also -swap): a Waitress moves
 * as a Rook and takes as a Unicorn, a Contrawaitress the reverse; fusion is no capture, so each fuses
 * along its moving lines. The Duchess of R+U or of W+X divides into the pair that formed it, or in the
 * -swap games into either pair. */
START_TEST(test_by_hand_divergent_fusion)
{
    const char *strict = "waitress-fusion", *swap = "waitress-fusion-swap";
    /* From f6 the file and the rank lines hold 30 cells of the empty board (f7..f11, f5..f1, and five
     * along each of O1 O2 O4 O5), the diagonals 12 (two along each): e7 d8 d5 b4 e4 d2 g4 h2 h5 k4 g7 h8. */
    const char *rook30 = "f7 f8 f9 f10 f11 f5 f4 f3 f2 f1 e6 d6 c6 b6 a6 e5 d4 c3 b2 a1 g5 h4 i3 k2 l1 g6 h6 i6 k6 l6";
    /* A Waitress reaches a Contrawaitress on f2 along the file and fuses; one on d2 only along a diagonal,
     * its capturing line: no fusion. A Contrawaitress reaches d2 along a diagonal and fuses. */
    ck_assert(hand_has(strict, 0, "Wf6 Xf2", "f6f2") && hand_has(swap, 0, "Wf6 Xf2", "f6f2"));
    hand_check(strict, 0, "Wf6 Xd2", "f6", rook30);
    ck_assert(hand_has(strict, 0, "Xf6 Wd2", "f6d2") && !hand_has(strict, 0, "Xf6 Wf2", "f6f2"));
    /* A Rook onto a Waitress: a Recuerider Rook (A); a Unicorn onto a Contrawaitress: a Recuerider Unicorn
     * (B); a Rook onto a Contrawaitress: a Teucerider Rook (T). The fused pair makes the Duchess: Q where it
     * remembers the divergent pair, D where any pair makes the same Duchess. */
    hand_make(strict, "Rf6 Wf2", "f6f2", "-", "Af2", 1);
    hand_make(strict, "Ud2 Xf6", "d2f6", "-", "Bf6", 1);
    hand_make(strict, "Rf6 Xf2", "f6f2", "-", "Tf2", 1);
    hand_make(strict, "Xd2 Wf6", "d2f6", "-", "Qf6", 1);
    hand_make(strict, "Ud2 Rf6", "d2f6", "-", "Df6", 1);
    hand_make(swap, "Xd2 Wf6", "d2f6", "-", "Df6", 1);
    /* Fission from f6 of the empty board: the whole Duchess has 42 moves; Q divides into a Waitress (its
     * Rook moves, 30, suffix w) and a Contrawaitress (its Unicorn moves, 12, suffix x), D of the strict
     * game into a Rook and a Unicorn (r, u): 84 moves each. The -swap Duchess divides either way: 126. */
    const char *diag12 = "e7 d8 d5 b4 e4 d2 g4 h2 h5 k4 g7 h8";
    char whole[1024], want[4096];
    snprintf(whole, sizeof whole, "%s %s", rook30, diag12);
    const char *suffixes[2][2] = { { "w", "x" }, { "r", "u" } };
    for (int k = 0; k < 2; k++) {
        int n = snprintf(want, sizeof want, "%s", whole);
        char list[1024];
        snprintf(list, sizeof list, "%s", rook30);
        for (char *save, *c = strtok_r(list, " ", &save); c; c = strtok_r(NULL, " ", &save))
            n += snprintf(want + n, sizeof want - (size_t)n, " %s%s", c, suffixes[k][0]);
        snprintf(list, sizeof list, "%s", diag12);
        for (char *save, *c = strtok_r(list, " ", &save); c; c = strtok_r(NULL, " ", &save))
            n += snprintf(want + n, sizeof want - (size_t)n, " %s%s", c, suffixes[k][1]);
        hand_check(strict, 0, k ? "Df6" : "Qf6", "f6", want);
    }
    ck_assert(hand_has(swap, 0, "Df6", "f6f8r") && hand_has(swap, 0, "Df6", "f6f8w") &&
              hand_has(swap, 0, "Df6", "f6e4u") && hand_has(swap, 0, "Df6", "f6e4x"));
    ck_assert(!hand_has(strict, 0, "Df6", "f6f8w") && !hand_has(strict, 0, "Qf6", "f6f8r"));
    /* What stays is the partner of what leaves, in its pair. */
    hand_make(swap, "Df6", "f6f8w", "Xf6", "Wf8", 1);
    hand_make(swap, "Df6", "f6e4u", "Rf6", "Ue4", 1);
    hand_make(strict, "Qf6", "f6e4x", "Wf6", "Xe4", 1);
    /* Shammes: a Shammes moves as a Finch (f6 to f8 by g6 g7 or e6 e7) and fuses there with a
     * Contrashammes; the Contrashammes reaches f8 so only to capture: no fusion. */
    hand_make("shammes-fusion", "Mf6 Nf8", "f6f8", "-", "Qf8", 1);
    hand_make("shammes-fusion-swap", "Mf6 Nf8", "f6f8", "-", "Cf8", 1);
    ck_assert(!hand_has("shammes-fusion", 0, "Nf6 Mf8", "f6f8"));
    /* Limit 8 per component, counted alone and inside compounds. Three Duchesses, three Recuerider Rooks
     * (R+W) and two Rooks hold 8 Rooks; the strict game's D holds R and U only, so 5 Waitresses (A, two W):
     * U S W X. The -swap Duchess may divide into W and X as well and counts for them: 8 Waitresses, U S X.
     * Three strict Q and three A hold 8 Waitresses and 5 Rooks: R U S X. */
    const char *eight = "Pf10 Da1 Db1 Dc1 Ad1 Ae1 Ag1 Rh1 Ri1 Wk1 Wl1";
    hand_check(strict, 0, eight, "f10", "f11u f11s f11w f11x");
    hand_check(swap, 0, eight, "f10", "f11u f11s f11x");
    hand_check(strict, 0, "Pf10 Qa1 Qb1 Qc1 Ad1 Ae1 Ag1 Rh1 Ri1 Wk1 Wl1", "f10", "f11r f11u f11s f11x");
}
END_TEST

/* Atoms and options that no built-in variant uses in this form: a curved piece with one first
 * direction, a step limit below 4, the orthogonal hopper and a double step along a half-forward orthogonal. */
static const char hand_ini[] =
    "[hand-atoms]\n"
    "board = hexagon 6\n"
    "piece = king K W F royal\n"
    "piece = bender A cR@0\n"                /* curved, first step straight ahead only */
    "piece = stepper Q cR2\n"                /* curved, at most two steps */
    "piece = cannon O hR\n"
    "piece = zig L lzR@0\n"                  /* Long crooked, first step straight ahead */
    "piece = zag M szR@0\n"                  /* Short crooked */
    "piece = simurgh G gR@30\n"              /* bent, first step along D0 */
    "piece = jackal J jR@30\n"               /* joined, first step along D0 */
    "piece = coyote Y jB@0\n"                /* joined, first step along O0 */
    "piece = pawn P move:W@0,60 capture:W@-60 pawn double@60 ep\n"
    "promotion = O\n"
    "double-step = e4\n"
    "start = 6/7/8/9/10/K9k/10/9/8/7/6 w - - 0 1\n";

START_TEST(test_by_hand_atoms)
{
    struct variant *v;
    char err[512];
    ck_assert_msg(variant_parse(hand_ini, "hand", &v, 1, NULL, 0, err, sizeof err) == 1, "%s", err);
    struct setup s;
    /* cR@0 on f6: O0 O1 O2 O3 O4 (f7 e7 d6 d5 e5) and O0 O5 O4 O3 O2 (f7 g7 h6 h5 g5). Black's forward is
     * O3: f5 g4 h4 h5 g6 and f5 e4 d4 d5 e6. */
    hand_setup(v, &s, 0, "Af6");
    hand_expect(v, &s, "f6", "f7 e7 d6 d5 e5  g7 h6 h5 g5");
    hand_setup(v, &s, 1, "af6");
    hand_expect(v, &s, "f6", "f5 g4 h4 h5 g6  e4 d4 d5 e6");
    /* cR2: the six neighbours and the six diagonal cells, not the cells two orthogonal steps away. */
    hand_setup(v, &s, 0, "Qf6");
    hand_expect(v, &s, "f6", "f7 e6 e5 f5 g5 g6  e7 d5 e4 g4 h5 g7");
    /* hR on f1: up the file moves to f2, hops its own f3 and takes f7; along the edge to the left moves
     * to e1, hops the enemy d1, skips the empty c1 and takes b1 (not a1); to the right only moves. */
    hand_setup(v, &s, 0, "Of1 Af3 af7 ad1 ab1 aa1");
    hand_expect(v, &s, "f1", "f2 f7  e1 b1  g1 h1 i1 k1 l1");
    /* double@60 from e4: e5 and d4 single, c4 double (along O1), not e6. The White pawn on d5 is one
     * O0 step from the en-passant cell d4 but not the one that passed it: Black's e5, capturing along
     * its -60 (O2), takes c4 en passant and d5 stays. */
    /* lzR@0 on f6: O0 O1 O0 O1 (f7 e7 e8 d8 d9) and O0 O5 O0 O5 (f7 g7 g8 h8 h9); an own piece on e8 ends
     * the first path before it. */
    hand_setup(v, &s, 0, "Lf6");
    hand_expect(v, &s, "f6", "f7 e7 e8 d8 d9  g7 g8 h8 h9");
    hand_setup(v, &s, 0, "Lf6 Ae8");
    hand_expect(v, &s, "f6", "f7 e7  g7 g8 h8 h9");
    /* szR@0 on f6: O0 O2 O0 O2 ... zigzags along O1 to the a-file (f7 e6 e7 d6 d7 c6 c7 b6 b7 a6), and
     * O0 O4 ... along O5 to l6; an enemy on e6 is taken and ends that path. */
    hand_setup(v, &s, 0, "Mf6");
    hand_expect(v, &s, "f6", "f7 e6 e7 d6 d7 c6 c7 b6 b7 a6  g6 g7 h6 h7 i6 i7 k6 k7 l6");
    hand_setup(v, &s, 0, "Mf6 ae6");
    hand_expect(v, &s, "f6", "f7 e6  g6 g7 h6 h7 i6 i7 k6 k7 l6");
    /* gR@30 on f6: the D0 step to e7, then up the file (O0: e8 e9 e10) or along O1 (d7 c7 b7); an enemy
     * on e8 is taken and the other slide goes on; an own piece on e7 stops everything. */
    hand_setup(v, &s, 0, "Gf6");
    hand_expect(v, &s, "f6", "e7 e8 e9 e10 d7 c7 b7");
    hand_setup(v, &s, 0, "Gf6 ae8");
    hand_expect(v, &s, "f6", "e7 e8 d7 c7 b7");
    hand_setup(v, &s, 0, "Gf6 Ae7");
    hand_expect(v, &s, "f6", "");
    /* jR@30 on f6: D0 to e7 (never a target), then along O0 over e7 e8 e9 e10 with a last D5 or D0
     * step (f9 d8, f10 d9, f11), or along O1 over e7 d7 c7 b7 with a last D0 or D1 step (d8 c6, c8 b6, a6).
     * An enemy on e7 blocks every path; one on d7 cuts the O1 slide after e7 and may not be taken (d7
     * is a passed cell, never a last step's target). */
    hand_setup(v, &s, 0, "Jf6");
    hand_expect(v, &s, "f6", "f9 d8 f10 d9 f11 c6 c8 b6 a6");
    hand_setup(v, &s, 0, "Jf6 ae7");
    hand_expect(v, &s, "f6", "");
    hand_setup(v, &s, 0, "Jf6 ad7");
    hand_expect(v, &s, "f6", "f9 d8 f10 d9 f11 c6");
    /* jB@0 on f6: O0 to f7, then along D5 over f7 g8 h9 with a last O5 or O0 step (g7 f8, h8 g9), or
     * along D0 over f7 e8 d9 with a last O0 or O1 step (f8 e7, e9 d8); an own piece on g8 cuts the D5
     * slide there. */
    hand_setup(v, &s, 0, "Yf6");
    hand_expect(v, &s, "f6", "g7 f8 h8 g9 e7 e9 d8");
    hand_setup(v, &s, 0, "Yf6 Ag8");
    hand_expect(v, &s, "f6", "g7 f8 e7 e9 d8");
    hand_setup(v, &s, 0, "Pe4");
    hand_expect(v, &s, "e4", "e5 d4 c4");
    hand_setup(v, &s, 0, "Pe4 Pd5 pe5");
    ck_assert(reference_make(v, &s, "e4c4"));
    ck_assert_str_eq(v->geo.name[s.ep], "d4");
    hand_expect(v, &s, "e5", "e4 f5 d4");
    ck_assert(reference_make(v, &s, "e5d4"));
    int len, pawn_w = piece_make(0, variant_type_of_letter(v, 'P'));
    ck_assert(!s.piece[geo_parse_cell(&v->geo, "c4", &len)]);
    ck_assert_int_eq(s.piece[geo_parse_cell(&v->geo, "d5", &len)], pawn_w);
    variant_free(v);
}
END_TEST

/* The built-in definitions: rules/variants.ini, embedded by the Makefile. */
extern const char variants_builtin_ini[];

/* The variants that a text of definitions defines, on their own (no parent from the registry). */
static int ini_parse(const char *text, struct variant **out)
{
    char err[2048];
    int n = variant_parse(text, "variants.ini", out, MAX_VARIANTS, NULL, 0, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    return n;
}

static void ini_free(struct variant **list, int n)
{
    for (int i = 0; i < n; i++)
        variant_free(list[i]);
}

/* Whether each '-'-separated word of a piece's name in variants.ini is in the table's names for the
 * movement it gives the piece's letter ("pacey-unicorn", "Unicorn (Pacey)"), ignoring case. */
static bool table_names_match(const char *piece, const char *movement)
{
    char names[128], word[NAME_LEN];
    snprintf(names, sizeof names, "%s", movement);
    for (char *c = names; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    for (size_t n; *piece; piece += n + (piece[n] == '-')) {
        n = strcspn(piece, "-");
        snprintf(word, sizeof word, "%.*s", (int)n, piece);
        if (!strstr(names, word))
            return false;
    }
    return true;
}

/* Every piece of every built-in variant moves, in the reference, as its table says
 * (reference_pieces.c), and the table means the piece that variants.ini names. */
START_TEST(test_table_covers_builtins)
{
    struct variant *list[MAX_VARIANTS];
    int n = ini_parse(variants_builtin_ini, list);
    for (int i = 0; i < n; i++)
        for (int t = 0; t < list[i]->ntypes; t++) {
            const struct variant *v = list[i];
            const struct piece_def *d = &v->piece[t];
            const struct reference_piece *p = reference_piece_of(v->name, d->army, d->letter);
            ck_assert_msg(p, "built-in variant %s, piece %c (%s): tests/reference_pieces.c has no movement for it; add "
                             "the letter to the variant's row of `armies` (a new variant needs a row, a new movement "
                             "an entry in `kinds` written from the rules' words)", v->name, d->letter, d->name);
            ck_assert_msg(table_names_match(d->name, p->name), "built-in variant %s, piece %c: variants.ini calls it "
                          "%s, tests/reference_pieces.c gives it the movement of %s", v->name, d->letter, d->name,
                          p->name);
        }
    ini_free(list, n);
}
END_TEST

/* The reference and the engine in a position of the variant as the text of definitions defines it:
 * returns whether their moves agree, and describes the difference in diff. */
static bool ini_position_agrees(const char *text, const char *variant, const char *pieces, char *diff, size_t len)
{
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    struct variant *list[MAX_VARIANTS], *v = NULL;
    int n = ini_parse(text, list);
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i]->name, variant))
            v = list[i];
    ck_assert_msg(v, "no variant %s", variant);
    ck_assert(zobrist_init(v));
    struct game g = { 0 };
    struct setup s;
    char err[512], fen[1024], missing[DIFF_LEN], extra[DIFF_LEN];
    hand_setup(v, &s, 0, pieces);
    setup_to_fen(&s, v, fen, sizeof fen);
    ck_assert_msg(game_init(&g, v, false, err, sizeof err) && game_set_position(&g, fen, NULL, 0, err, sizeof err),
                  "%s", err);
    int nref = reference_moves(v, &s, ref), nfast = fast_moves(&g, fast);
    bool agree = lists_diff(ref, nref, fast, nfast, missing, extra);
    snprintf(diff, len, "%s %s\nreference only:%s\nengine only:%s", variant, fen, missing, extra);
    game_free(&g);
    ini_free(list, n);
    return agree;
}

/* The text with a line of the variant's section replaced (the first one after its header). */
static char *ini_replace(const char *text, const char *variant, const char *line, const char *wrong)
{
    char header[NAME_LEN + 2];
    snprintf(header, sizeof header, "[%s", variant);
    const char *section = strstr(text, header), *at = section ? strstr(section, line) : NULL;
    ck_assert_msg(at, "variants.ini has no line '%s' in [%s]", line, variant);
    size_t head = (size_t)(at - text);
    char *out = malloc(strlen(text) - strlen(line) + strlen(wrong) + 1);
    ck_assert(out);
    memcpy(out, text, head);
    strcpy(out + head, wrong);
    strcat(out, at + strlen(line));
    return out;
}

/* Lines of variants.ini written wrong on purpose (whole lines), and a position where it shows. */
static const struct {
    const char *variant, *line, *wrong, *pieces;
} ini_mutations[] = {
    /* The Knight as a root-7 rider (off the centre: from f6 a second leap leaves the board). */
    { "glinski", "piece = knight N N\n", "piece = knight N NN\n", "Kg1 kg10 Nf3" },
    /* The Finch as a Rabbi. */
    { "mishling", "piece = finch F cR\n", "piece = finch F cB\n", "Kg1 kg10 Ff6" },
    /* The Glinski pawn capturing as McCooey's. */
    { "glinski", "piece = pawn P move:W@0 capture:W@60,-60 pawn double ep\n",
      "piece = pawn P move:W@0 capture:F@30,-30 pawn double ep\n", "Kg1 kg10 Pf6 pe6 pg6 pe7 pg7" },
    /* ND Trios: the Migrants' cells given to every pawn (a Broker on e3 would double-step), and the front
     * Brokers given the double step (g4 stands behind no Broker). */
    { "nd-trios", "double-step-of = M d2 e3 l3 m2\n", "double-step = d2 e3 l3 m2\n", "Kh1 kh15 Pe3 Md2" },
    { "nd-trios", "double-step-of = P g3 h3 i3\n", "double-step-of = P g3 h3 i3 g4\n", "Kh1 kh15 Pg4 Pg3" },
};

/* A wrong line in variants.ini fails the comparison: the engine moves the piece as the line says, the
 * reference as its table says. With the line as shipped the two agree in the same position. */
START_TEST(test_table_catches_ini_mistakes)
{
    char diff[4096];
    const char *variant = ini_mutations[_i].variant, *line = ini_mutations[_i].line;
    const char *pieces = ini_mutations[_i].pieces;
    ck_assert_msg(ini_position_agrees(variants_builtin_ini, variant, pieces, diff, sizeof diff), "%s", diff);
    char *wrong = ini_replace(variants_builtin_ini, variant, line, ini_mutations[_i].wrong);
    ck_assert_msg(!ini_position_agrees(wrong, variant, pieces, diff, sizeof diff),
                  "with '%.*s' in [%s] the reference still agrees with the engine: %s", (int)strcspn(line, "\n"),
                  ini_mutations[_i].wrong, variant, diff);
    free(wrong);
}
END_TEST

/* A three-player position from words "rGf1": colour letter, piece letter, cell. */
static void tri_setup(const struct variant *v, struct setup *s, int side, const char *pieces)
{
    memset(s, 0, sizeof *s);
    s->ep = CELL_NONE;
    s->fullmove = 1;
    s->side = side;
    char word[16];
    for (int used; sscanf(pieces, "%15s%n", word, &used) == 1; pieces += used) {
        const char *colour = memchr(v->colour_letter, word[0], 3);
        int len = 0, type = variant_type_of_letter(v, word[1]);
        int cell = geo_parse_cell(&v->geo, word + 2, &len);
        ck_assert_msg(colour && type >= 0 && cell != CELL_NONE && !word[2 + len] && !s->piece[cell],
                      "%s: bad word %s", v->name, word);
        s->piece[cell] = (unsigned char)piece_make((int)(colour - v->colour_letter), type);
    }
}

/* The piece on the named cell (0: empty). */
static int tri_at(const struct variant *v, const struct setup *s, const char *cell)
{
    int len;
    return s->piece[geo_parse_cell(&v->geo, cell, &len)];
}

/* What the resolution did, as text: the armies taken off ("w:threat" when the player to move attacked its
 * royal, "r:mated" when it was to move with no move in check), then "| r wins", "| w to move" or
 * "| r stalemated". */
static void tri_resolution_text(const struct variant *v, const struct setup *s, const struct reference_resolution *r,
                                bool going, char *out, size_t len)
{
    *out = 0;
    for (int i = 0; i < r->neliminated; i++) {
        char word[16];
        snprintf(word, sizeof word, "%c:%s", v->colour_letter[r->eliminated[i]], r->no_move[i] ? "mated" : "threat");
        text_append(out, len, word);
    }
    char end[32];
    snprintf(end, sizeof end, "| %c %s", v->colour_letter[r->winner >= 0 ? r->winner : s->side],
             going ? "to move" : r->winner >= 0 ? "wins" : "stalemated");
    text_append(out, len, end);
    ck_assert(going == (r->winner < 0 && !r->stalemate));
}

/* Resolves the position and checks what happened and how many moves the player then to move has. */
static void tri_resolve(const struct variant *v, struct setup *s, const char *want, int nmoves)
{
    static move_text moves[REFERENCE_MAX_MOVES];
    struct setup before = *s;
    struct reference_resolution r;
    char have[256], fen[1024];
    bool going = reference_resolve(v, s, &r);
    tri_resolution_text(v, s, &r, going, have, sizeof have);
    setup_to_fen(&before, v, fen, sizeof fen);
    ck_assert_msg(!strcmp(have + 1, want), "%s: resolution '%s', expected '%s'", fen, have + 1, want);
    /* An elimination is not a ply. */
    ck_assert_int_eq(s->halfmove, before.halfmove);
    ck_assert_int_eq(s->fullmove, before.fullmove);
    if (going)
        ck_assert_int_eq(reference_moves(v, s, moves), nmoves);
    /* Perft resolves on its own: its depth 1 is the moves of whoever is to move after resolution. */
    ck_assert_uint_eq(reference_perft(v, &before, 1), (uint64_t)(going ? nmoves : 0));
}

/* All legal moves of the position, sorted and joined by single spaces. */
static void tri_moves(const struct variant *v, const struct setup *s, char *out, size_t len)
{
    static move_text moves[REFERENCE_MAX_MOVES];
    char list[4096] = "";
    int n = reference_moves(v, s, moves);
    for (int i = 0; i < n; i++)
        text_append(list, sizeof list, moves[i]);
    words_sorted(list, out, len);
}

static void tri_play(const struct variant *v, struct setup *s, const char *move, char side, int halfmove, int fullmove)
{
    ck_assert_msg(reference_make(v, s, move), "%s refused", move);
    ck_assert_int_eq(v->colour_letter[s->side], side);
    ck_assert_int_eq(s->halfmove, halfmove);
    ck_assert_int_eq(s->fullmove, fullmove);
}

/* Grants the castling rights of the rooks on the listed cells. */
static void hand_rights(const struct variant *v, struct setup *s, const char *rooks)
{
    char word[16];
    for (int used; sscanf(rooks, "%15s%n", word, &used) == 1; rooks += used) {
        int cell = geo_parse_cell(&v->geo, word, NULL), found = 0;
        for (int p = 0; p < v->nplayers; p++)
            for (int i = 0; i < v->ncastles; i++)
                if (v->castle[p][i].rook == cell) {
                    s->castling |= castle_bit(p, i);
                    found++;
                }
        ck_assert_msg(found == 1, "%s: no castling rook starts on %s", v->name, word);
    }
}

/* The castling rights held, as the rooks' cells in cell order. */
static void hand_rights_text(const struct variant *v, const struct setup *s, char *out, size_t len)
{
    *out = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        for (int p = 0; p < v->nplayers; p++)
            for (int i = 0; i < v->ncastles; i++)
                if ((s->castling & castle_bit(p, i)) && v->castle[p][i].rook == c)
                    text_append(out, len, v->geo.name[c]);
}

static int cell_of(const struct variant *v, const char *name)
{
    int len;
    return geo_parse_cell(&v->geo, name, &len);
}

/* The engine from the setup's FEN, compared with the reference there and after the move (if any). */
static void ep_compare(const struct variant *v, const struct setup *s, const char *move)
{
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    char fen[1024], err[256];
    struct game g;
    setup_to_fen(s, v, fen, sizeof fen);
    test_game(&g, v->name, NULL, false);
    ck_assert_msg(game_set_position(&g, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
    state_compare(&g, s, fen);
    int n = position_compare(&g, s, ref, fast);
    struct setup after = *s;
    if (move) {
        ck_assert(reference_make(v, &after, move));
        g.ops->position_make(g.pos, fast_find(fast, n, move));
        state_compare(&g, &after, move);
    }
    game_free(&g);
}

/* The pawn taken en passant is the one that made the last double step, even where another pawn of its
 * army stands one step past the passed cell along its other double-step direction (De Vasa: after d3d5
 * d7b5 c3c5 both d5 and c5 do, past c4). The FEN names that pawn after the cell when the cell alone
 * would not say which one it is. */
START_TEST(test_en_passant_victim)
{
    const struct variant *v = test_variant("devasa");
    struct setup s, t;
    char err[256], fen[1024];
    const int pawn = piece_make(0, variant_type_of_letter(v, 'P'));
    ck_assert(setup_from_fen(&s, v, v->start_fen, err, sizeof err));
    ck_assert(reference_make(v, &s, "d3d5") && reference_make(v, &s, "d7b5") && reference_make(v, &s, "c3c5"));
    ck_assert_int_eq(s.ep, cell_of(v, "c4"));
    ck_assert_int_eq(s.ep_victim, cell_of(v, "c5"));
    t = s;
    ck_assert(reference_make(v, &t, "b5c4"));
    ck_assert(!t.piece[cell_of(v, "c5")] && t.piece[cell_of(v, "d5")] == pawn);
    /* d5 could only have passed c4 from b3, where a pawn stands: the cell alone says c5. */
    setup_to_fen(&s, v, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " c4 0 "), "%s", fen);
    ep_compare(v, &s, "b5c4");
    /* With b3 empty either pawn could have: the FEN names the one that did, and a FEN that does not is
     * refused. */
    s.piece[cell_of(v, "b3")] = 0;
    setup_to_fen(&s, v, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " c4c5 0 "), "%s", fen);
    ck_assert(setup_from_fen(&t, v, fen, err, sizeof err) && t.ep_victim == cell_of(v, "c5"));
    ep_compare(v, &s, "b5c4");
    s.ep_victim = cell_of(v, "d5");
    setup_to_fen(&s, v, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " c4d5 0 "), "%s", fen);
    ck_assert(setup_from_fen(&t, v, fen, err, sizeof err) && t.ep_victim == cell_of(v, "d5"));
    /* Taking d5 would open the d-file from White's queen d1 to Black's king d9. */
    ep_compare(v, &s, NULL);
    t = s;
    ck_assert(!reference_make(v, &t, "b5c4"));
    *strstr(fen, " c4d5 0 ") = 0;
    strcat(fen, " c4 0 2");
    ck_assert(!setup_from_fen(&t, v, fen, err, sizeof err));
    ck_assert_msg(strstr(err, "two pawns may have passed the en-passant cell"), "%s", err);
}
END_TEST

/* Castling by hand (variants.md, "Rules (seed 003)"). castle-nd: White's Grandduke on the corner h1,
 * Rooks on e1 (castling takes the Grandduke to f1 and the Rook to g1) and l1 (to k1, the Rook to i1),
 * Black's Grandduke on h15. Its own steps from h1 are g1 h2 i1 (W) and g2 i2 (F). */
START_TEST(test_by_hand_castling)
{
    const struct variant *v = test_variant("castle-nd");
    static const struct {
        const char *extra, *want;
    } cases[] = {
        { "", "g1 g2 h2 i1 i2 f1 k1" },
        /* A Black Rook on f10 sees down the file f to f1, where the Grandduke would land. */
        { "rf10", "g1 g2 h2 i1 i2 k1" },
        /* On g10 it sees g2 and g1, which the Grandduke would cross. */
        { "rg10", "h2 i1 i2 k1" },
        /* On h10 it gives check: no castling. */
        { "rh10", "g1 g2 i1 i2" },
        /* On k10 it covers the target k1; on i10 the crossed i1 (and i2). */
        { "rk10", "f1 g1 g2 h2 i1 i2" },
        { "ri10", "f1 g1 g2 h2" },
        /* Any piece between the Grandduke and the Rook blocks, a friendly or an enemy one; a Black
         * Unicorn on i1 also attacks g1 along D1, so neither side castles (and the Grandduke takes it). */
        { "Si1", "f1 g1 g2 h2 i2" },
        { "ui1", "g2 h2 i1 i2" },
        /* The Rook itself may be attacked (up the file e). */
        { "re10", "g1 g2 h2 i1 i2 f1 k1" },
    };
    struct setup s;
    char pieces[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(pieces, sizeof pieces, "Kh1 Re1 Rl1 kh15 %s", cases[i].extra);
        hand_setup(v, &s, 0, pieces);
        hand_rights(v, &s, "e1 l1");
        hand_expect(v, &s, "h1", cases[i].want);
    }
    /* Without its right the Grandduke does not castle on that side. */
    hand_setup(v, &s, 0, "Kh1 Re1 Rl1 kh15");
    hand_rights(v, &s, "l1");
    hand_expect(v, &s, "h1", "g1 g2 h2 i1 i2 k1");

    /* Both pieces move, the clock goes on, and the Grandduke's rights are gone (Black's stay). */
    char rights[64];
    const char *home = "Kh1 Re1 Rl1 kh15 re12 rl12";
    hand_setup(v, &s, 0, home);
    hand_rights(v, &s, "e1 l1 e12 l12");
    ck_assert(reference_make(v, &s, "h1f1"));
    ck_assert_str_eq(hand_piece(v, &s, "f1"), "Kf1");
    ck_assert_str_eq(hand_piece(v, &s, "g1"), "Rg1");
    ck_assert_str_eq(hand_piece(v, &s, "h1"), "-");
    ck_assert_str_eq(hand_piece(v, &s, "e1"), "-");
    ck_assert_int_eq(s.halfmove, 1);
    hand_rights_text(v, &s, rights, sizeof rights);
    ck_assert_str_eq(rights, " e12 l12");
    /* A Rook's move loses its own right; taking a Rook loses the other army's. Moving back restores
     * nothing. */
    hand_setup(v, &s, 0, home);
    hand_rights(v, &s, "e1 l1 e12 l12");
    ck_assert(reference_make(v, &s, "e1e5"));
    ck_assert(reference_make(v, &s, "l12l1"));
    hand_rights_text(v, &s, rights, sizeof rights);
    ck_assert_str_eq(rights, " e12");
    ck_assert(reference_make(v, &s, "h1h2"));
    ck_assert(reference_make(v, &s, "l1l12"));
    ck_assert(reference_make(v, &s, "e5e1"));
    hand_rights_text(v, &s, rights, sizeof rights);
    ck_assert_str_eq(rights, " e12");

    /* castle-tri: Red's Grandduke f1 takes the Rook's cell d1 (the Rook goes to e1) or swaps with the
     * Rook on h1. Its own steps: e1 f2 g1 (W) and e2 g2 (F). Black's Rook on e9 attacks e1 and e2, which
     * the first castling crosses; White's Rook on h7 attacks h1, where the second lands. */
    const struct variant *t = test_variant("castle-tri");
    tri_setup(t, &s, 0, "rKf1 rRd1 rRh1 wKl6 bKa6");
    hand_rights(t, &s, "d1 h1");
    hand_expect(t, &s, "f1", "d1 e1 e2 f2 g1 g2 h1");
    tri_setup(t, &s, 0, "rKf1 rRd1 rRh1 wKl6 bKa6 bRe9");
    hand_rights(t, &s, "d1 h1");
    hand_expect(t, &s, "f1", "f2 g1 g2 h1");
    tri_setup(t, &s, 0, "rKf1 rRd1 rRh1 wKl6 bKa6 bRe9 wRh7");
    hand_rights(t, &s, "d1 h1");
    hand_expect(t, &s, "f1", "f2 g1 g2");
    tri_setup(t, &s, 0, "rKf1 rRd1 rRh1 wKl6 bKa6");
    hand_rights(t, &s, "d1 h1");
    ck_assert(reference_make(t, &s, "f1h1"));
    ck_assert_int_eq(tri_at(t, &s, "h1"), piece_make(0, variant_royal_type(t, 0)));
    ck_assert_int_eq(tri_at(t, &s, "f1"), piece_make(0, variant_type_of_letter(t, 'R')));
    ck_assert_int_eq(s.castling, 0);
    /* An army that leaves the board takes its rights along: White, to move, attacks Red's Grandduke. */
    tri_setup(t, &s, 1, "rKf1 rRd1 rRh1 wKl6 wRf8 bKa6");
    hand_rights(t, &s, "d1 h1");
    struct reference_resolution r;
    ck_assert(reference_resolve(t, &s, &r));
    ck_assert_int_eq(r.neliminated, 1);
    ck_assert_int_eq(s.castling, 0);
}
END_TEST

/* Cells in Wellisch's game (docs/geometry.md): file a..l is q = -5..5, rank 1 the lowest r of the file. Red's
 * forward is D0 (-1,+2); a Red Point steps to O0 (0,+1) or O1 (-1,+1), move or capture; the knight E
 * takes one diagonal step; the General one orthogonal step. */
START_TEST(test_three_start)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    char err[256], have[4096];
    ck_assert_msg(setup_from_fen(&s, v, v->start_fen, err, sizeof err), "%s", err);
    ck_assert(reference_fen_accepted(v, &s));
    /* Red: Points e1 (d1 e2), f2 (e2 f3), g2 (f3; g3 is its own), i2 (i3; h3 own), k2 (i3 k3), l2 (k3 l3),
     * g3 (f4 g4), h3 (g4 h4): 14. Knights f1 (e2; the other diagonals leave the board or hold g2), l1 (k3;
     * i2 own), h2 (f3 g4 i3; g1 k1 own): 5. The Rooks g1 k1, the Vicereine h1 and the General i1 are boxed
     * in by their own pieces. 19. */
    tri_moves(v, &s, have, sizeof have);
    ck_assert_str_eq(have, " e1d1 e1e2 f1e2 f2e2 f2f3 g2f3 g3f4 g3g4 h2f3 h2g4 h2i3 h3g4 h3h4 i2i3 k2i3 k2k3 l1k3 "
                           "l2k3 l2l3");
    /* The other armies are Red's turned by 120 and 240 degrees: 19 moves each, and in the first round no
     * move reaches a cell that another army's first moves use or attack, so 19^2 and 19^3. */
    ck_assert_uint_eq(reference_perft(v, &s, 1), 19);
    ck_assert_uint_eq(reference_perft(v, &s, 2), 361);
    ck_assert_uint_eq(reference_perft(v, &s, 3), 6859);
    /* The fullmove number grows when the turn passes back to an army earlier in r, w, b order: after
     * Black's move. A knight's move counts for the 100-ply rule, a Point's resets it. */
    tri_play(v, &s, "h2g4", 'w', 1, 1);
    tri_play(v, &s, "i7i6", 'b', 0, 1);
    tri_play(v, &s, "b4d5", 'r', 1, 2);
}
END_TEST

/* Capture-threat: Red, to move, attacks White's General; White leaves at once and Red moves. */
START_TEST(test_three_capture_threat)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    /* Red's Rook on f6 (0,0) sees up the file to White's General on f10. Black's General a3 (-5,2) is on
     * none of its lines: the FEN is accepted (Black moved last and is safe; White may be attacked). */
    tri_setup(v, &s, 0, "rGi1 rRf6 wGf10 bGa3");
    s.halfmove = 9;
    s.fullmove = 30;
    ck_assert(reference_fen_accepted(v, &s));
    struct setup start = s;
    /* Then Red has 34 moves: the Rook's 5 cells along each of its six lines from the centre (none holds a
     * piece once White is gone) and the General's i2 h2 h1 k1 (the other two neighbours are off the board). */
    tri_resolve(v, &s, "w:threat | r to move", 34);
    ck_assert(!tri_at(v, &s, "f10"));
    /* Depth 2: after each Red move Black moves (White is skipped) with its General's a4 a2 b3 b4, less the
     * cells that the Rook then attacks: f7 e6 (row r = 1: a2 b3) and f4 d4 (line s = 2: a4 b4) leave 2 each;
     * f9 c6 (a4), f2 (a2), f8 d6 (check along r = 2, b4 behind), f3 c3 (check along s = 3, b3) leave 3; b6
     * (b3 b4 up the file) and a6 a1 (check along the a-file, a4 / a2 behind) leave 2; b2 leaves a4 only;
     * the other 15 Rook moves and the 4 General moves leave all 4. 7 * 2 + 7 * 3 + 1 + 19 * 4 = 112. */
    ck_assert_uint_eq(reference_perft(v, &start, 2), 112);
    /* The turn passes from Red to Black, skipping White; fullmove grows only when it comes back to Red. */
    tri_play(v, &s, "i1i2", 'b', 10, 30);
    tri_play(v, &s, "a3a4", 'r', 11, 31);
}
END_TEST

/* Removals in a chain: Red's knight e5 (-1,0) attacks White's General d6 (-2,2) by D0; White's knight f8
 * stands between Red's Rook f3 and Black's General f10. White leaves, the file opens, Black leaves: Red is
 * the last army and has won, so no move is counted. Black, who moved last, was safe: the FEN is fine. */
START_TEST(test_three_chain)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    tri_setup(v, &s, 0, "rGi1 rRf3 rEe5 wEf8 wGd6 bGf10");
    ck_assert(reference_fen_accepted(v, &s));
    struct setup start = s;
    tri_resolve(v, &s, "w:threat b:threat | r wins", 0);
    ck_assert_uint_eq(reference_perft(v, &start, 0), 1);
    ck_assert_uint_eq(reference_perft(v, &start, 2), 0);
    /* With two armies left, one capture-threat ends the game: the Rook on f6 sees Black's General on f9. */
    tri_setup(v, &s, 0, "rGi1 rRf6 bGf9");
    tri_resolve(v, &s, "b:threat | r wins", 0);
}
END_TEST

/* A player to move in check with no legal move is eliminated, and the next army moves in the same
 * position. Red's General on the corner f1 (0,-5) has three neighbours: f2 (0,-4), e1 (-1,-4), g1 (1,-5).
 * A Vicereine (R + F) on f3 (0,-3) checks along the file through f2 and covers e1 and g1 with its
 * diagonal steps D2 and D3: mate. */
START_TEST(test_three_mated)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    /* White then moves: the Vicereine's lines f4..f11 (8), f2 f1 (2, Red's General is gone), e3 d3 c3 b3 a3
     * (5), e2 d1 (2), g2 h1 (2), g3 h3 i3 k3 l3 (5) and its six diagonal steps e4 d2 e1 g1 h2 g4: 30; the
     * General l1: l2 k2 k1: 33. The clocks stay (7 and 12): an elimination is not a ply. */
    tri_setup(v, &s, 0, "rGf1 wVf3 wGl1 bGb6");
    s.halfmove = 7;
    s.fullmove = 12;
    struct setup start = s;
    tri_resolve(v, &s, "r:mated | w to move", 33);
    ck_assert_int_eq(v->colour_letter[s.side], 'w');
    /* Depth 2: Black's General b6 (-4,4) then has b7 a6 a5 b5 c6 c7 less the cells the Vicereine attacks.
     * Its lines through those cells are the files q = -5, -4, -3, the rows r = 5, 4, 3 and the lines
     * s = -1, 0, 1 (each holding two of them); twelve Vicereine moves reach one such line (f5 f6 f7 f9 f10
     * f11 c3 b3 h3 i3 k3 g4: 4 moves left), a3 reaches one and steps diagonally to b5 (3 left), the other
     * 17 and the General's 3 moves leave all 6: 48 + 3 + 102 + 18 = 171. */
    ck_assert_uint_eq(reference_perft(v, &start, 2), 171);
    /* Red gone: White passes to Black (same fullmove), Black to White, earlier in r, w, b: it grows. */
    tri_play(v, &s, "l1k1", 'b', 8, 12);
    tri_play(v, &s, "b6b7", 'w', 9, 13);

    /* The resolution repeats for the next army: Red's knight on h3 (2,-3) cannot take the Vicereine or
     * block f2, so Red is mated as before; its knight leaves with it and opens the Vicereine's row
     * g3 h3 i3 to Black's General on k3 (4,-3): White, now to move, takes Black off and wins. */
    tri_setup(v, &s, 0, "rGf1 rEh3 wVf3 wGl1 bGk3");
    ck_assert(reference_fen_accepted(v, &s));
    tri_resolve(v, &s, "r:mated b:threat | w wins", 0);
    /* Two armies: the mated one leaves and the other is the last on the board. */
    tri_setup(v, &s, 0, "rGf1 bVf3 bGb6");
    tri_resolve(v, &s, "r:mated | b wins", 0);
    /* A capture-threat first: Red's knight e5 attacks White's General d6; White's knight f2 leaves with it,
     * which uncovers the check of Black's Vicereine, and Red (its knight reaches neither f2 nor f3) is mated:
     * Black wins. */
    tri_setup(v, &s, 0, "rGf1 rEe5 wEf2 wGd6 bVf3 bGb6");
    ck_assert(reference_fen_accepted(v, &s));
    tri_resolve(v, &s, "w:threat r:mated | b wins", 0);
    /* Mated Red leaves and White, to move, is stalemated: its General l1 (5,-5) has l2 k2 k1, covered by
     * Black's Rooks on e1 (the row r = -4: f2 .. l2) and k4 (the file k: k3 k2 k1), and l1 is not attacked.
     * (The Rook on e1, next to Red's General, is guarded by the Vicereine's diagonal D2.) */
    tri_setup(v, &s, 0, "rGf1 wGl1 bVf3 bRe1 bRk4 bGb6");
    tri_resolve(v, &s, "r:mated | w stalemated", 0);
}
END_TEST

/* Stalemate of the player to move: Red's General f1 is not attacked, but f2 and e1 are (White's Rook l2
 * along the row r = -4) and so is g1 (Black's Rook g5 down the file g). A draw: nobody leaves. */
START_TEST(test_three_stalemate)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    tri_setup(v, &s, 0, "rGf1 wRl2 bRg5 wGf11 bGa1");
    ck_assert(reference_fen_accepted(v, &s));
    tri_resolve(v, &s, "| r stalemated", 0);
}
END_TEST

/* The turn skips an army that has left; the fullmove number grows when the turn passes to an army earlier
 * in r, w, b order than the mover. Generals alone, far apart; each General move adds one to the clock. */
START_TEST(test_three_turn_order)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    /* White gone: Red, Black, Red. */
    tri_setup(v, &s, 0, "rGi1 bGa3");
    tri_play(v, &s, "i1i2", 'b', 1, 1);
    tri_play(v, &s, "a3a4", 'r', 2, 2);
    /* Black gone: Red, White, Red. */
    tri_setup(v, &s, 0, "rGi1 wGa6");
    tri_play(v, &s, "i1i2", 'w', 1, 1);
    tri_play(v, &s, "a6a5", 'r', 2, 2);
    /* Red gone: White, Black, then White again, which comes earlier than Black: it grows. */
    tri_setup(v, &s, 1, "wGa6 bGa1");
    tri_play(v, &s, "a6a5", 'b', 1, 1);
    tri_play(v, &s, "a1a2", 'w', 2, 2);
}
END_TEST

/* En passant with three players: only the army that makes the next ply may take, and an elimination is not
 * a ply. In tri-ep-ref Black's pawns go O4 (+1,-1) and double-step from d6 (-2,2), passing e6 (-1,1) to f6
 * (0,0). Red's pawn d5 (-2,1) takes along O5 (+1,0) onto e6; White's pawn e7 (-1,2) along O3 (0,-1) onto
 * e6. Neither can take f6 itself. */
START_TEST(test_three_en_passant)
{
    const struct variant *v = test_variant("tri-ep-ref");
    struct setup s;
    tri_setup(v, &s, 2, "rGi1 rPd5 wGa1 wPe7 bGf11 bPd6");
    s.fullmove = 3;
    tri_play(v, &s, "d6f6", 'r', 0, 4);
    ck_assert_str_eq(v->geo.name[s.ep], "e6");
    /* Red, next, may take: d5 steps to d6 (now empty) or takes e6 en passant; the General i1 has i2 h2 h1 k1. */
    struct setup taken = s;
    char have[4096];
    tri_moves(v, &s, have, sizeof have);
    ck_assert_str_eq(have, " d5d6 d5e6 i1h1 i1h2 i1i2 i1k1");
    tri_play(v, &taken, "d5e6", 'w', 0, 4);
    int pawn = variant_type_of_letter(v, 'P');
    ck_assert(!tri_at(v, &taken, "f6") && !tri_at(v, &taken, "d5"));
    ck_assert_int_eq(tri_at(v, &taken, "e6"), piece_make(0, pawn));
    /* After another Red move the field is clear: White's e7 only steps to d6 (its forward O2). */
    tri_play(v, &s, "i1i2", 'w', 1, 4);
    ck_assert_int_eq(s.ep, CELL_NONE);
    hand_expect(v, &s, "e7", "d6");

    /* Now Red cannot move: its General on f1 is in check from the Rook f3 (through f2), the Rook l2 covers
     * e1 and f2 (row r = -4), the Rook g4 covers g1 (file g), and neither d5d6 nor d5e6 helps. Red leaves;
     * White makes the next ply and may take en passant (the field stayed). */
    tri_setup(v, &s, 2, "rGf1 rPd5 wRf3 wRl2 wRg4 wGa1 wPe7 bGa6 bPd6");
    s.fullmove = 5;
    tri_play(v, &s, "d6f6", 'r', 0, 6);
    /* White's moves: General a1: a2 b1 b2 (3); e7: d6 and e6 en passant (2); Rook f3: f4 f5, takes f6, f2
     * f1, e3 d3 c3 b3 a3, e2 d1, g2 h1, g3 h3 i3 k3 l3 (19); Rook g4: g5..g10, g3 g2 g1, f5 e5 d5 c5 b5 a5,
     * f4 e3 d2 c1, h3 i2 k1, h4 i4 k4 l4 (26); Rook l2: l3..l6, l1, k3 i4 h5 g6 f7 (up to its own e7), k2 i2
     * h2 g2 f2 e1 (16). 66. */
    tri_resolve(v, &s, "r:mated | w to move", 66);
    ck_assert_str_eq(v->geo.name[s.ep], "e6");
    hand_expect(v, &s, "e7", "d6 e6");
    tri_play(v, &s, "e7e6", 'b', 0, 6);
    ck_assert(!tri_at(v, &s, "f6") && !tri_at(v, &s, "e7"));
    ck_assert_int_eq(tri_at(v, &s, "e6"), piece_make(1, pawn));
}
END_TEST

/* A FEN is refused when the army that just moved, the previous one in turn order still on the board, is
 * attacked. */
START_TEST(test_three_fen_check)
{
    const struct variant *v = test_variant("wellisch");
    struct setup s;
    /* White's Rook a1 sees up the file a to Black's General a3: refused with Red to move (Black moved
     * last), accepted with White to move (Red moved last; White will take Black off at once). */
    tri_setup(v, &s, 0, "rGi1 wGf11 wRa1 bGa3");
    ck_assert(!reference_fen_accepted(v, &s));
    s.side = 1;
    ck_assert(reference_fen_accepted(v, &s));
    /* Black gone: before Red comes White, whose General f11 Red's Rook f1 attacks up the file. */
    tri_setup(v, &s, 0, "rGi1 rRf1 wGf11");
    ck_assert(!reference_fen_accepted(v, &s));
    /* Two players as before: Black's King on the White Queen's file with White to move. */
    const struct variant *g = test_variant("glinski");
    char err[256];
    ck_assert(setup_from_fen(&s, g, "6/7/8/9/10/Q4k5/10/9/8/7/K5 w - - 0 1", err, sizeof err));
    ck_assert(!reference_fen_accepted(g, &s));
    ck_assert(setup_from_fen(&s, g, g->start_fen, err, sizeof err));
    ck_assert(reference_fen_accepted(g, &s));
}
END_TEST

Suite *suite_reference(void)
{
    Suite *s = suite_create("reference");
    TCase *hand = tcase_create("by hand");
    tcase_add_test(hand, test_by_hand);
    tcase_add_test(hand, test_by_hand_atoms);
    tcase_add_test(hand, test_by_hand_fusion);
    tcase_add_test(hand, test_by_hand_divergent_fusion);
    tcase_add_test(hand, test_by_hand_castling);
    tcase_add_test(hand, test_en_passant_victim);
    suite_add_tcase(s, hand);
    TCase *table = tcase_create("piece table");
    tcase_add_test(table, test_table_covers_builtins);
    tcase_add_loop_test(table, test_table_catches_ini_mistakes, 0, sizeof ini_mutations / sizeof *ini_mutations);
    suite_add_tcase(s, table);
    TCase *three = tcase_create("three players by hand");
    tcase_set_timeout(three, test_timeout(60));
    tcase_add_test(three, test_three_start);
    tcase_add_test(three, test_three_capture_threat);
    tcase_add_test(three, test_three_chain);
    tcase_add_test(three, test_three_mated);
    tcase_add_test(three, test_three_stalemate);
    tcase_add_test(three, test_three_turn_order);
    tcase_add_test(three, test_three_en_passant);
    tcase_add_test(three, test_three_fen_check);
    suite_add_tcase(s, three);
    TCase *exotic = tcase_create("curved and hopping attacks");
    tcase_set_timeout(exotic, test_timeout(120));
    char err[256];
    tcase_add_loop_test(exotic, test_exotic_attacks, 0,
                        test_registry_init(err, sizeof err) ? loop_pair(-1, NULL, NULL) : 0);
    suite_add_tcase(s, exotic);
    TCase *tc = tcase_create("perft files");
    tcase_set_timeout(tc, test_timeout(300));
    tcase_add_test(tc, test_perft_files);
    suite_add_tcase(s, tc);
    return s;
}

/* The random comparisons, one suite per kind, every variant and width in each: the longest tests,
 * which make test runs in separate processes. */
static Suite *random_suite(const char *name, const TTest *test)
{
    Suite *s = suite_create(name);
    char err[256];
    int loops = test_registry_init(err, sizeof err) ? loop_pair(-1, NULL, NULL) : 0;
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_loop_test(tc, test, 0, loops);
    suite_add_tcase(s, tc);
    return s;
}

Suite *suite_reference_games(void)
{
    return random_suite("reference-games", test_random_games);
}

Suite *suite_reference_placements(void)
{
    return random_suite("reference-placements", test_random_placements);
}
