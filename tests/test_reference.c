/* The engine's move generator, make/unmake and keys against the reference generator (reference.c):
 * random games, random placements and the perft suites, in every built-in variant and both instances. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/registry.h"
#include "reference.h"
#include "tests.h"

enum {
    GAMES = 8,             /* per variant and instance */
    GAME_PLIES = 150,
    PLACEMENTS = 600,      /* per variant and instance */
    PERFT_MAX = 300000,    /* deeper counts are left to the engine's own perft tests */
};

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

static int rng_below(int n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int)(rng_state % (uint64_t)n);
}

/* Loop tests run every variant in both instances: index i is variant i / 2, wide = i % 2. */
static const struct variant *loop_variant(int i)
{
    return test_variant(registry_get(i / 2)->name);
}

static int fast_cmp(const void *a, const void *b)
{
    return strcmp(((const struct fast_move *)a)->text, ((const struct fast_move *)b)->text);
}

static int text_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
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

/* Fails with the FEN and both differences unless the sorted lists agree (a duplicate counts as extra). */
static void lists_compare(const struct game *g, const struct setup *s, move_text *ref, int nref,
                          const struct fast_move *fast, int nfast)
{
    char missing[1024] = "", extra[1024] = "";
    int i = 0, k = 0;
    while (i < nref || k < nfast) {
        int c = i == nref ? 1 : k == nfast ? -1 : strcmp(ref[i], fast[k].text);
        if (c < 0)
            text_append(missing, sizeof missing, ref[i++]);
        else if (c > 0)
            text_append(extra, sizeof extra, fast[k++].text);
        else
            i++, k++;
    }
    if (!*missing && !*extra)
        return;
    char fen[1024];
    setup_to_fen(s, g->v, fen, sizeof fen);
    ck_abort_msg("%s (%d-bit) %s\nreference only:%s\nengine only:%s", g->v->name, g->ops->bits, fen,
                 missing, extra);
}

static bool setup_equal(const struct variant *v, const struct setup *a, const struct setup *b)
{
    return !memcmp(a->piece, b->piece, (size_t)v->geo.ncells) && a->side == b->side && a->ep == b->ep &&
           a->halfmove == b->halfmove && a->fullmove == b->fullmove;
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

static bool move_is_special(const struct variant *v, const struct setup *s, const char *text)
{
    int len = 0, from = geo_parse_cell(&v->geo, text, &len);
    int len2 = 0, to = geo_parse_cell(&v->geo, text + len, &len2);
    bool pawn = v->piece[piece_type(s->piece[from])].pawn;
    return s->piece[to] || text[len + len2] || (pawn && to == s->ep);
}

/* Half the time a capture, promotion or en-passant capture if there is one, so that games reach
 * endgames and promotions. */
static int move_choose(const struct variant *v, const struct setup *s, move_text *moves, int n)
{
    if (rng_below(2)) {
        int special[REFERENCE_MAX_MOVES], k = 0;
        for (int i = 0; i < n; i++)
            if (move_is_special(v, s, moves[i]))
                special[k++] = i;
        if (k)
            return special[rng_below(k)];
    }
    return rng_below(n);
}

/* Where a position came from, for failure messages: the previous FEN and the move. */
static void context_set(char *ctx, size_t len, const struct variant *v, const struct setup *s, const char *text)
{
    char fen[1024];
    setup_to_fen(s, v, fen, sizeof fen);
    snprintf(ctx, len, "%s from %s", text, fen);
}

static void game_play_random(const struct variant *v, bool wide)
{
    static move_text ref[REFERENCE_MAX_MOVES];
    static struct fast_move fast[MAX_MOVES];
    struct game g;
    char err[256], ctx[1200] = "the start";
    struct setup s, setups[GAME_PLIES];
    uint64_t keys[GAME_PLIES];
    move_t played[GAME_PLIES];
    test_game(&g, v->name, NULL, wide);
    ck_assert(setup_from_fen(&s, v, v->start_fen, err, sizeof err));
    int plies = 0;
    for (;;) {
        state_compare(&g, &s, ctx);
        int n = position_compare(&g, &s, ref, fast);
        if (!n || plies == GAME_PLIES)
            break;
        const char *text = ref[move_choose(v, &s, ref, n)];
        context_set(ctx, sizeof ctx, v, &s, text);
        setups[plies] = s;
        keys[plies] = g.ops->position_key(g.pos);
        played[plies] = fast_find(fast, n, text);
        g.ops->position_make(g.pos, played[plies++]);
        ck_assert(reference_make(v, &s, text));
    }
    while (plies--) {
        g.ops->position_unmake(g.pos, played[plies]);
        ck_assert_msg(g.ops->position_key(g.pos) == keys[plies], "%s (%d-bit): unmake does not restore the key",
                      v->name, g.ops->bits);
        state_compare(&g, &setups[plies], "unmake");
    }
    game_free(&g);
}

START_TEST(test_random_games)
{
    const struct variant *v = loop_variant(_i);
    rng_seed((uint64_t)_i + 1);
    for (int k = 0; k < GAMES; k++)
        game_play_random(v, _i % 2);
}
END_TEST
