/* The engine's move generator, make/unmake and keys against the reference generator (reference.c):
 * random games, random placements and the perft suites, in every built-in variant and both instances. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/registry.h"
#include "reference.h"
#include "tests.h"

/* Sized for CI, also under the sanitizers; REFERENCE_SCALE=n multiplies the work (n = 3 checks
 * every perft count up to 300 000). */
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

/* Reads the cells of a move text; returns whether it has a promotion suffix. */
static bool text_cells(const struct variant *v, const char *text, int *from, int *to)
{
    int len = 0, len2 = 0;
    *from = geo_parse_cell(&v->geo, text, &len);
    *to = geo_parse_cell(&v->geo, text + len, &len2);
    return text[len + len2];
}

static bool move_is_special(const struct variant *v, const struct setup *s, const char *text)
{
    int from, to;
    bool promotion = text_cells(v, text, &from, &to);
    return s->piece[to] || promotion || (v->piece[piece_type(s->piece[from])].pawn && to == s->ep);
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
    for (int k = 0; k < GAMES * scale(); k++)
        game_play_random(v, _i % 2);
}
END_TEST

/* What the placements covered, so that a test that stops exercising a rule fails. */
struct coverage {
    int positions, checks, promotions, en_passant;
};

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

static int type_random(const struct variant *v, bool (*want)(const struct piece_def *))
{
    int types[MAX_TYPES], n = 0;
    for (int t = 0; t < v->ntypes; t++)
        if (want(&v->piece[t]))
            types[n++] = t;
    return n ? types[rng_below(n)] : -1;
}

static bool is_plain(const struct piece_def *d) { return !d->royal; }
static bool is_double_stepper(const struct piece_def *d) { return d->double_step; }
static bool is_ep_pawn(const struct piece_def *d) { return d->en_passant; }

/* Both royals and a few (often very few: checks and pins) pieces of any kind on random cells. */
static void placement_random(const struct variant *v, struct setup *s)
{
    int ncells = v->geo.ncells;
    memset(s, 0, sizeof *s);
    s->ep = CELL_NONE;
    s->fullmove = 1;
    s->side = rng_below(v->nplayers);
    for (int pl = 0; pl < v->nplayers; pl++)
        while (!piece_place(v, s, pl, variant_royal_type(v), rng_below(ncells)))
            ;
    int extra = rng_below(2) ? rng_below(5) : 5 + rng_below(26);
    for (int k = 0; k < extra; k++)
        piece_place(v, s, rng_below(v->nplayers), type_random(v, is_plain), rng_below(ncells));
}

/* Pawns of the side to move on double-step cells, each with an enemy pawn that could take it en
 * passant after its double step. */
static void placement_add_double_steps(const struct variant *v, struct setup *s)
{
    int cells[MAX_CELLS], ncells = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        if (v->double_cell[s->side][c])
            cells[ncells++] = c;
    int type = type_random(v, is_double_stepper), enemy_type = type_random(v, is_ep_pawn);
    int enemy = (s->side + 1) % v->nplayers;
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
    if (found)
        *s = after[rng_below(found)];
    return found;
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
    for (int i = 0; i < n; i++) {
        int from, to;
        cov->promotions += text_cells(v, ref[i], &from, &to);
        cov->en_passant += to == s->ep && v->piece[piece_type(s->piece[from])].pawn;
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
    int prev = (s->side + g->v->nplayers - 1) % g->v->nplayers;
    bool accepted = game_set_position(g, fen, NULL, 0, err, sizeof err);
    ck_assert_msg(accepted == !reference_in_check(g->v, s, prev), "%s (%d-bit) %s: engine %s it (%s)",
                  g->v->name, g->ops->bits, fen, accepted ? "accepts" : "refuses", accepted ? "" : err);
    if (!accepted)
        return;
    state_compare(g, s, fen);
    int n = position_compare(g, s, ref, fast);
    coverage_count(g->v, s, ref, n, cov);
    moves_make_unmake(g, s, ref, n, fast);
}

START_TEST(test_random_placements)
{
    const struct variant *v = loop_variant(_i);
    bool ep = type_random(v, is_double_stepper) >= 0 && type_random(v, is_ep_pawn) >= 0;
    struct game g;
    struct coverage cov = { 0 };
    test_game(&g, v->name, NULL, _i % 2);
    rng_seed((uint64_t)_i + 1000);
    int want = PLACEMENTS * scale();
    for (int k = 0; cov.positions < want && k < 4 * want; k++) {
        struct setup s;
        placement_random(v, &s);
        if (ep && rng_below(3) == 0) {
            placement_add_double_steps(v, &s);
            if (reference_in_check(v, &s, (s.side + v->nplayers - 1) % v->nplayers) ||
                !placement_double_step(v, &s))
                continue;
        }
        placement_check(&g, &s, &cov);
    }
    ck_assert_msg(cov.positions == want && cov.checks > want / 20 && cov.promotions &&
                      (!ep || cov.en_passant),
                  "%s: too little covered: %d positions, %d in check, %d promotions, %d en passant", v->name,
                  cov.positions, cov.checks, cov.promotions, cov.en_passant);
    game_free(&g);
}
END_TEST

/* One EPD line, "FEN ;D1 n ;D2 n ...": checks every count small enough for the reference. */
static int perft_line(const struct variant *v, char *line, const char *where)
{
    char err[256];
    char *fen = strtok(line, ";");
    struct setup s;
    ck_assert_msg(setup_from_fen(&s, v, fen, err, sizeof err), "%s: %s", where, err);
    int checked = 0;
    for (char *field = strtok(NULL, ";"); field; field = strtok(NULL, ";")) {
        int depth;
        unsigned long long want;
        ck_assert_msg(sscanf(field, " D%d %llu", &depth, &want) == 2, "%s: bad field '%s'", where, field);
        if (want > (unsigned long long)PERFT_MAX * (unsigned)scale())
            continue;
        uint64_t have = reference_perft(v, &s, depth);
        ck_assert_msg(have == want, "%s: %s depth %d: file says %llu, reference counts %llu", where, fen, depth,
                      want, (unsigned long long)have);
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

Suite *suite_reference(void)
{
    Suite *s = suite_create("reference");
    char err[256];
    int loops = 2 * (registry_init(err, sizeof err) ? registry_count() : 0);
    TCase *tc = tcase_create("random games");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_loop_test(tc, test_random_games, 0, loops);
    suite_add_tcase(s, tc);
    tc = tcase_create("random placements");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_loop_test(tc, test_random_placements, 0, loops);
    suite_add_tcase(s, tc);
    tc = tcase_create("perft files");
    tcase_set_timeout(tc, test_timeout(300));
    tcase_add_test(tc, test_perft_files);
    suite_add_tcase(s, tc);
    return s;
}
