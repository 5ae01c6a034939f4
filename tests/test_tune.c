/* The tunable evaluation and the tuner: weights files round trip and refuse every bad field and cut,
 * the trace gives the evaluation exactly in every variant, the tuner recovers known weights from
 * positions labelled with them, and EvalWeights errors keep the engine's weights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../datagen/datagen.h"
#include "../eval/trace.h"
#include "../eval/weights.h"
#include "../rules/registry.h"
#include "../tune/tune.h"
#include "../util/random.h"
#include "engine_pipe.h"
#include "tests.h"

static void registry_setup(void)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
}

static bool same_weights(const struct variant *v, const struct eval_params *a, const struct eval_params *b)
{
    if (a->lazy_margin != b->lazy_margin)
        return false;
    for (int id = 0; id < NUM_WEIGHTS; id++)
        if (weights_applies(v, id) && memcmp(&a->w[id], &b->w[id], sizeof a->w[id]))
            return false;
    return true;
}

START_TEST(test_weights_round_trip)
{
    char err[512];
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        struct eval_params p, back;
        struct text t = { 0 };
        ck_assert_msg(weights_for_variant(v, &p, err, sizeof err), "%s: %s", v->name, err);
        weights_write(v, &p, &t);
        memset(&back, 0, sizeof back);
        ck_assert_msg(weights_parse(v, text_str(&t), "written", &back, err, sizeof err), "%s: %s", v->name, err);
        ck_assert_msg(same_weights(v, &p, &back), "%s: weights differ after the round trip", v->name);
        text_free(&t);
    }
}
END_TEST

/* Every cut of a written file: at a line's end a valid partial file, elsewhere one error line; on an
 * error the weights are untouched. */
START_TEST(test_weights_cuts)
{
    char err[512];
    const struct variant *v = test_variant("glinski");
    struct eval_params p, q;
    struct text t = { 0 };
    ck_assert(weights_for_variant(v, &p, err, sizeof err));
    for (int id = 0; id < NUM_WEIGHTS; id++)
        p.w[id] = (struct phased){ id % 7 - 3, id % 5 + 10 };
    weights_write(v, &p, &t);
    const char *s = text_str(&t);
    size_t len = strlen(s);
    char *cut = malloc(len + 1);
    for (size_t n = 0; n < len; n++) {
        memcpy(cut, s, n);
        cut[n] = 0;
        memset(&q, 0x55, sizeof q);
        struct eval_params keep = q;
        bool ok = weights_parse(v, cut, "cut", &q, err, sizeof err);
        ck_assert_msg(ok == (n == 0 || s[n - 1] == '\n'), "cut at %zu: %s", n, ok ? "accepted" : err);
        if (!ok) {
            ck_assert_msg(!strchr(err, '\n') && !strncmp(err, "cut:", 4), "cut at %zu: %s", n, err);
            ck_assert(!memcmp(&q, &keep, sizeof q));
        }
    }
    free(cut);
    text_free(&t);
}
END_TEST

START_TEST(test_weights_bad_fields)
{
    static const char *const bad[] = {
        "centre.3 1\n",         "centre.3 1 2 3\n",  "centre.x 1 2\n",    "centre.10 1 2\n", "centre 1 2\n",
        "tempo.1 1 2\n",        "value.zebra 1 2\n", "value.king 1 2\n",  "passed.knight 1 2\n", "mobility.pawn 1 2\n",
        "bogus 1 2\n",          "tempo 1e3 2\n",     "tempo 99999 0\n",   "tempo - 1\n",     "tempo 1 2x\n",
        "tempo 1 2",            "shield 1 2\ntempo 3\n", ".tempo 1 2\n",   "advance.-1 1 2\n", "advance.24 0 0\n",
        "lazy-margin\n",        "lazy-margin -1\n",  "lazy-margin 1 2\n", "lazy-margin x\n", "lazy-margin 10001\n",
    };
    char err[512];
    const struct variant *v = test_variant("glinski");
    struct eval_params p, keep;
    ck_assert(weights_for_variant(v, &p, err, sizeof err));
    keep = p;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        ck_assert_msg(!weights_parse(v, bad[i], "f", &p, err, sizeof err), "accepted: %s", bad[i]);
        ck_assert_msg(err[0] && !strchr(err, '\n') && !strncmp(err, "f:", 2), "%s: %s", bad[i], err);
        ck_assert(!memcmp(&p, &keep, sizeof p));
    }
    /* Good lines: comments, blank lines, a family default, then one type. */
    ck_assert_msg(weights_parse(v, "# c\n\nmobility 3 4 # all\nmobility.knight 7 8\n", "f", &p, err, sizeof err), "%s", err);
    int knight = -1, rook = -1;
    for (int t = 0; t < v->ntypes; t++) {
        knight = v->piece[t].letter == 'N' ? t : knight;
        rook = v->piece[t].letter == 'R' ? t : rook;
    }
    ck_assert_int_eq(p.w[W_MOBILITY + knight].mg, 7);
    ck_assert_int_eq(p.w[W_MOBILITY + rook].eg, 4);
    /* The lazy margin: default.txt's for a variant without a file of its own, then a file's. */
    struct eval_params plain;
    ck_assert(weights_for_variant(test_variant("brusky"), &plain, err, sizeof err));
    ck_assert_int_eq(plain.lazy_margin, 400);
    ck_assert_msg(weights_parse(v, "lazy-margin 150\n", "f", &p, err, sizeof err), "%s", err);
    ck_assert_int_eq(p.lazy_margin, 150);
}
END_TEST

static bool has_builtin_file(const char *name)
{
    for (const struct weights_file *f = weights_builtin; f->name; f++)
        if (!strcmp(f->name, name))
            return true;
    return false;
}

/* A variant without a weights file of its own has its nearest ancestor's weights (a family's file
 * serves its descendants); a user variant whose parent's file names a piece it replaced still gets
 * the rest of the file. */
START_TEST(test_family_weights)
{
    char err[512];
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i), *parent = registry_find(v->parent);
        struct eval_params pv, pp;
        if (!parent || has_builtin_file(v->name))
            continue;
        ck_assert_msg(weights_for_variant(v, &pv, err, sizeof err), "%s: %s", v->name, err);
        ck_assert_msg(weights_for_variant(parent, &pp, err, sizeof err), "%s: %s", parent->name, err);
        for (int a = W_MOBILITY; a < NUM_WEIGHTS; a++)
            for (int b = W_MOBILITY; b < NUM_WEIGHTS && weights_applies(v, a); b++) {
                char na[64], nb[64];
                weights_name(v, a, na, sizeof na);
                weights_name(parent, b, nb, sizeof nb);
                if (weights_applies(parent, b) && !strcmp(na, nb))
                    ck_assert_msg(!memcmp(&pv.w[a], &pp.w[b], sizeof pv.w[a]), "%s %s: %d %d, %s's %d %d", v->name, na,
                                  pv.w[a].mg, pv.w[a].eg, parent->name, pp.w[b].mg, pp.w[b].eg);
            }
    }
    ck_assert_int_eq(registry_add_text("[tune-child:glinski]\npiece = amazon Q R B N\n", "t.ini", false,
                                       game_validate_variant, err, sizeof err), 1);
    struct eval_params child, glinski;
    ck_assert_msg(weights_for_variant(registry_find("tune-child"), &child, err, sizeof err), "%s", err);
    ck_assert(weights_for_variant(test_variant("glinski"), &glinski, err, sizeof err));
    ck_assert_int_eq(child.w[W_TEMPO].mg, glinski.w[W_TEMPO].mg);
    ck_assert_str_eq(child.source, glinski.source);
}
END_TEST

/* Random weights for every term but the piece values, so that each term counts. */
static void random_weights(struct eval_params *p, uint64_t *rng)
{
    for (int id = W_MOBILITY; id < NUM_WEIGHTS; id++)
        p->w[id] = (struct phased){ (int)(random_next(rng) % 61) - 30, (int)(random_next(rng) % 61) - 30 };
}

/* A random legal move, or false at the game's end (three players: through game_play). */
static bool random_move(struct game *g, uint64_t *rng)
{
    move_t list[1024];
    struct game_status st = game_status(g);
    if (st.outcome != GAME_ONGOING)
        return false;
    int n = game_legal_moves(g, list);
    if (!n)
        return false;
    unsigned mated;
    game_play(g, list[random_next(rng) % (uint64_t)n], &mated);
    return true;
}

START_TEST(test_trace_exact)
{
    char err[512];
    uint64_t rng = 12;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        struct game g = { 0 };
        struct eval_params p;
        ck_assert_msg(game_init(&g, v, false, err, sizeof err), "%s", err);
        ck_assert(weights_for_variant(v, &p, err, sizeof err));
        for (int game = 0; game < 3; game++) {
            ck_assert(game_set_position(&g, NULL, NULL, 0, err, sizeof err));
            random_weights(&p, &rng);
            ck_assert(game_load_weights(&g, &p, err, sizeof err));
            for (int ply = 0; ply < 80 && random_move(&g, &rng); ply++) {
                struct eval_trace tr;
                if (g.ops->position_in_check(g.pos))
                    continue;
                int plain = g.ops->evaluate(g.tb, g.pos, &eval_weights_default, NULL);
                int traced = g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
                ck_assert_msg(plain == traced, "%s ply %d: %d without trace, %d with", v->name, ply, plain, traced);
                ck_assert_msg(trace_evaluate(&tr, &p, v->nplayers) == traced, "%s ply %d: trace %d, eval %d", v->name,
                              ply, trace_evaluate(&tr, &p, v->nplayers), traced);
            }
        }
        game_free(&g);
    }
}
END_TEST

/* The blocked pawns of an army's type counted one by one: every cell a lone pawn there steps to (the
 * piece guide's quiet cells) is taken. */
static int blocked_slowly(const struct game *g, const struct setup *s, int pl, int t)
{
    int n = 0;
    for (int c = 0; c < g->v->geo.ncells; c++) {
        if (s->piece[c] != piece_make(pl, t))
            continue;
        bool quiet[MAX_CELLS], capture[MAX_CELLS], free = false;
        g->ops->piece_reach(g->tb, pl, t, c, quiet, capture);
        for (int x = 0; x < g->v->geo.ncells; x++)
            free |= quiet[x] && !s->piece[x];
        n += !free;
    }
    return n;
}

/* At each position of the walk, every army's blocked pawns of each type as the evaluation counts them
 * (by whole sets where every step adds the same offset to the cell index) and one pawn at a time. */
static void visit_blocked(struct game *g, const move_t *list, int n, void *ctx)
{
    (void)list, (void)n, (void)ctx;
    const struct variant *v = g->v;
    struct eval_trace tr;
    struct setup s;
    g->ops->evaluate(g->tb, g->pos, &eval_weights_default, &tr);
    g->ops->position_get(g->pos, &s);
    for (int pl = 0; pl < v->nplayers; pl++)
        for (int t = 0; t < v->ntypes; t++)
            if (v->piece[t].pawn && v->piece[t].army == v->army[pl])
                ck_assert_msg(tr.coef[pl][W_BLOCKED + t] == blocked_slowly(g, &s, pl, t),
                              "%s %d-bit army %d type %d: %d blocked, %d one by one", v->name, g->ops->bits, pl, t,
                              tr.coef[pl][W_BLOCKED + t], blocked_slowly(g, &s, pl, t));
}

/* Along random games of every variant, in each width that holds its board, the evaluation's blocked
 * pawns are those counted one pawn at a time. */
START_TEST(test_blocked_pawns)
{
    test_walk_games(21, 100, visit_blocked, NULL);
}
END_TEST

/* The position with the two armies' places exchanged under the variant's symmetry (variant_map_cell,
 * an involution with two players), the other army to move; no castling or en passant, which the
 * evaluation does not read. */
static void mirror_setup(const struct variant *v, const struct setup *s, struct setup *m)
{
    *m = *s;
    memset(m->piece, 0, sizeof m->piece);
    for (int c = 0; c < v->geo.ncells; c++)
        if (s->piece[c])
            m->piece[variant_map_cell(v, c, 1)] = (unsigned char)piece_make(1 - piece_colour(s->piece[c]),
                                                                             piece_type(s->piece[c]));
    m->side = 1 - s->side;
    m->castling = 0;
    m->ep = m->ep_victim = CELL_NONE;
}

/* Whether the start array maps onto itself with the armies exchanged (one army for both players). */
static bool start_mirrors(const struct game *g)
{
    struct setup s, m;
    g->ops->position_get(g->pos, &s);
    mirror_setup(g->v, &s, &m);
    return g->v->nplayers == 2 && variant_army_first(g->v, 1) == 0 && !memcmp(s.piece, m.piece, sizeof s.piece);
}

/* Whether both armies' counts are the same in the start position (the mover's tempo aside). */
static bool trace_mirrors(const struct game *g)
{
    struct eval_trace tr;
    g->ops->evaluate(g->tb, g->pos, &eval_weights_default, &tr);
    for (int id = 0; id < NUM_WEIGHTS; id++)
        if (id != W_TEMPO && tr.coef[0][id] != tr.coef[1][id])
            return false;
    return true;
}

/* Along random games of every two-player variant whose start array mirrors, with random weights (every
 * term on), each army's counts are those of the other army in the mirrored position, and the narrow
 * and the wide cell sets count alike: a term that mixes up the armies, or one width's compiled copy
 * that differs (GCC once computed the threats wrongly at -O3 for 256-bit sets only), fails here. */
START_TEST(test_trace_symmetric)
{
    char err[512];
    uint64_t rng = 29;
    int mirrored = 0;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        struct game g = { 0 }, wide = { 0 };
        struct eval_params p;
        ck_assert_msg(game_init(&g, v, false, err, sizeof err) && game_init(&wide, v, true, err, sizeof err), "%s",
                      err);
        if (!start_mirrors(&g)) {
            game_free(&g);
            game_free(&wide);
            continue;
        }
        /* Shafran's and Brusky's piece-cell counts once differed here: the rim distance was taken
         * from cell (0, 0), not from their off-centre boards' centre. */
        ck_assert_msg(trace_mirrors(&g), "%s: the armies count apart at the start", v->name);
        mirrored++;
        ck_assert(weights_for_variant(v, &p, err, sizeof err));
        random_weights(&p, &rng);
        ck_assert(game_load_weights(&g, &p, err, sizeof err) && game_load_weights(&wide, &p, err, sizeof err));
        for (int ply = 0; ply < 40 && random_move(&g, &rng); ply++) {
            struct setup s, m;
            struct eval_trace tr, trm, trw;
            g.ops->position_get(g.pos, &s);
            s.castling = 0;
            s.ep = s.ep_victim = CELL_NONE;
            mirror_setup(v, &s, &m);
            ck_assert_msg(wide.ops->position_set(wide.pos, &s, err, sizeof err), "%s", err);
            int score = wide.ops->evaluate(wide.tb, wide.pos, &eval_weights_default, &trw);
            ck_assert_msg(wide.ops->position_set(wide.pos, &m, err, sizeof err), "%s", err);
            int mirror = wide.ops->evaluate(wide.tb, wide.pos, &eval_weights_default, &trm);
            ck_assert_int_eq(g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr), score);
            ck_assert_msg(!memcmp(tr.coef, trw.coef, sizeof tr.coef), "%s ply %d: the widths count apart", v->name,
                          ply);
            ck_assert_msg(score == mirror, "%s ply %d: %d, mirrored %d", v->name, ply, score, mirror);
            for (int pl = 0; pl < 2; pl++)
                for (int id = 0; id < NUM_WEIGHTS; id++)
                    ck_assert_msg(trw.coef[pl][id] == trm.coef[1 - pl][id], "%s ply %d: army %d weight %d: %d, mirrored %d",
                                  v->name, ply, pl, id, trw.coef[pl][id], trm.coef[1 - pl][id]);
        }
        game_free(&g);
        game_free(&wide);
    }
    ck_assert_int_ge(mirrored, 10);
}
END_TEST

static int type_of(const struct variant *v, char letter)
{
    for (int t = 0; t < v->ntypes; t++)
        if (v->piece[t].letter == letter)
            return t;
    ck_abort_msg("no piece %c", letter);
    return -1;
}

/* A weight planted in the synthetic evaluation. */
struct planted {
    int id;
    struct phased w;
};

/* Positions of random games labelled with a synthetic evaluation under known weights (the result is
 * the win probability it gives): the tuner, started from the built-in weights, must come back to them. */
static void assert_recovers(const char *variant, const struct planted *plant, int nplant)
{
    char err[512];
    const struct variant *v = test_variant(variant);
    struct game g = { 0 };
    struct eval_params start, truth, fit;
    struct tune_set s = { .v = v };
    uint64_t rng = 5;
    ck_assert(game_init(&g, v, false, err, sizeof err));
    ck_assert(weights_for_variant(v, &start, err, sizeof err));
    truth = start;
    for (int i = 0; i < nplant; i++)
        truth.w[plant[i].id] = plant[i].w;
    const double k = 1.0;
    while (s.n < 4000) {
        ck_assert(game_set_position(&g, NULL, NULL, 0, err, sizeof err));
        for (int ply = 0; ply < 120 && random_move(&g, &rng); ply++) {
            struct eval_trace tr;
            if (g.ops->position_in_check(g.pos) || ply < 6)
                continue;
            g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
            int e = trace_evaluate(&tr, &truth, v->nplayers);
            if (abs(e) < 1500)
                ck_assert(tune_set_add(&s, &tr, v->nplayers, 1 / (1 + exp(-k * e / 400)), e));
        }
    }
    struct tune_options o = { .lambda = 1, .lr = 0.5, .k = k, .epochs = 600, .threads = 2, .seed = 1 };
    fit = start;
    double before = tune_loss(&s, &start, &o);
    ck_assert(tune_run(&s, &o, &fit, NULL));
    double after = tune_loss(&s, &fit, &o);
    ck_assert_msg(after < before / 20, "%s: loss %g -> %g", variant, before, after);
    /* Each changed weight comes back to within a quarter of its change (and 1 cp of rounding). */
    for (int id = W_MOBILITY; id < NUM_WEIGHTS; id++) {
        char name[64];
        if (!memcmp(&start.w[id], &truth.w[id], sizeof start.w[id]))
            continue;
        weights_name(v, id, name, sizeof name);
        int dmg = abs(truth.w[id].mg - start.w[id].mg), deg = abs(truth.w[id].eg - start.w[id].eg);
        ck_assert_msg(abs(fit.w[id].mg - truth.w[id].mg) * 4 <= dmg + 4 && abs(fit.w[id].eg - truth.w[id].eg) * 4 <= deg + 4,
                      "%s %s: truth %d %d, fitted %d %d", variant, name, truth.w[id].mg, truth.w[id].eg, fit.w[id].mg,
                      fit.w[id].eg);
    }
    /* The same data and seed give the same weights. */
    struct eval_params again = start;
    ck_assert(tune_run(&s, &o, &again, NULL));
    ck_assert(!memcmp(&again, &fit, sizeof fit));
    tune_set_free(&s);
    game_free(&g);
}

START_TEST(test_tuner_recovers)
{
    const struct variant *v = test_variant("glinski");
    struct planted plant[] = {
        { W_MOBILITY + type_of(v, 'Q'), { 4, 10 } }, { W_MOBILITY + type_of(v, 'R'), { 6, 8 } },
        { W_MOBILITY + type_of(v, 'B'), { 8, 6 } },  { W_MOBILITY + type_of(v, 'N'), { 10, 4 } },
        { W_TEMPO, { 30, 20 } },                     { W_SHIELD, { 20, -10 } },
    };
    assert_recovers("glinski", plant, sizeof plant / sizeof *plant);
}
END_TEST

/* Three players: the balance against the leading opponent, set apart from the material against the
 * mean of both. */
START_TEST(test_tuner_recovers_leader)
{
    const struct variant *v = test_variant("wellisch");
    struct planted plant[] = {
        { W_LEADER + type_of(v, 'P'), { 40, 60 } },
        { W_LEADER + type_of(v, 'R'), { 120, 80 } },
    };
    assert_recovers("wellisch", plant, sizeof plant / sizeof *plant);
}
END_TEST

/* Takes one piece of the colour and type off the setup. */
static void remove_one(struct setup *s, int colour, int type)
{
    int c = 0;
    while (!s->piece[c] || piece_colour(s->piece[c]) != colour || piece_type(s->piece[c]) != type)
        c++;
    s->piece[c] = 0;
}

/* Wellisch: the leader term counts the mover's pieces less those of the opponent with more material,
 * type by type, in the mover's sums only. */
START_TEST(test_leader_counts)
{
    struct game g;
    struct setup s;
    struct eval_trace tr;
    char err[512];
    test_game(&g, "wellisch", NULL, false);
    const struct variant *v = g.v;
    int rook = type_of(v, 'R'), knight = type_of(v, 'E');
    g.ops->position_get(g.pos, &s);
    ck_assert_int_eq(s.side, 0);
    /* White loses a rook, Black a rook and a knight: White leads, against Red's full army. */
    static const int lose[][2] = { { 1, 'R' }, { 2, 'R' }, { 2, 'E' } };
    for (size_t i = 0; i < sizeof lose / sizeof *lose; i++)
        remove_one(&s, lose[i][0], type_of(v, lose[i][1]));
    ck_assert_msg(g.ops->position_set(g.pos, &s, err, sizeof err), "%s", err);
    g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
    for (int t = 0; t < v->ntypes; t++) {
        ck_assert_int_eq(tr.coef[0][W_LEADER + t], t == rook);
        ck_assert_int_eq(tr.coef[1][W_LEADER + t], 0);
        ck_assert_int_eq(tr.coef[2][W_LEADER + t], 0);
    }
    /* Black to move: Red, which lost nothing, leads. */
    s.side = 2;
    ck_assert_msg(g.ops->position_set(g.pos, &s, err, sizeof err), "%s", err);
    g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
    for (int t = 0; t < v->ntypes; t++)
        ck_assert_int_eq(tr.coef[2][W_LEADER + t], -(t == rook) - (t == knight));
    /* A two-player variant has no such weights. */
    struct eval_params p;
    ck_assert(weights_for_variant(test_variant("glinski"), &p, err, sizeof err));
    ck_assert(!weights_parse(test_variant("glinski"), "leader.rook 1 2\n", "f", &p, err, sizeof err));
    ck_assert_msg(strstr(err, "3 or more players") && !strchr(err, '\n'), "%s", err);
    ck_assert_msg(weights_parse(test_variant("glinski"), "leader 1 2\n", "f", &p, err, sizeof err), "%s", err);
    game_free(&g);
}
END_TEST

static int count_of(const struct setup *s, const struct variant *v, int colour, int type)
{
    int n = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        n += s->piece[c] && piece_colour(s->piece[c]) == colour && piece_type(s->piece[c]) == type;
    return n;
}

/* Four players of different armies: the mover's own types count for it, the leader's own types
 * against it; an eliminated army is no opponent, and with one opponent left the term is off. */
START_TEST(test_leader_counts_four_players)
{
    struct game g;
    test_game(&g, "nd-wellisch-4p", NULL, false);
    const struct variant *v = g.v;
    int point = variant_army_type(v, v->army[2], 'P');
    struct setup s;
    g.ops->position_get(g.pos, &s);
    /* Black loses a Point: White leads, whoever is to move after Red. */
    remove_one(&s, 2, point);
    s.side = 1;
    struct eval_trace tr;
    char err[512];
    ck_assert_msg(g.ops->position_set(g.pos, &s, err, sizeof err), "%s", err);
    g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
    for (int t = 0; t < v->ntypes; t++)
        if (!v->piece[t].royal)
            ck_assert_int_eq(tr.coef[1][W_LEADER + t], count_of(&s, v, 1, t) - count_of(&s, v, 0, t));
    ck_assert_int_ne(tr.coef[1][W_LEADER + variant_army_type(v, v->army[1], 'P')], 0);
    ck_assert_int_ne(tr.coef[1][W_LEADER + point], 0);
    /* Green and Black gone: one opponent is left. */
    for (int c = 0; c < v->geo.ncells; c++)
        if (s.piece[c] && piece_colour(s.piece[c]) >= 2)
            s.piece[c] = 0;
    ck_assert_msg(g.ops->position_set(g.pos, &s, err, sizeof err), "%s", err);
    g.ops->evaluate(g.tb, g.pos, &eval_weights_default, &tr);
    for (int t = 0; t < v->ntypes; t++)
        ck_assert_int_eq(tr.coef[1][W_LEADER + t], 0);
    game_free(&g);
}
END_TEST

/* Reads lines until one starts with prefix; the line, or NULL. */
static const char *read_until(struct proc *p, const char *prefix)
{
    for (const char *line; (line = pipe_read_line(p, (int)(test_timeout(10) * 1000)));)
        if (!strncmp(line, prefix, strlen(prefix)))
            return line;
    return NULL;
}

START_TEST(test_eval_weights_option)
{
    char good[] = "/tmp/sennight-weights-XXXXXX", bad[] = "/tmp/sennight-weights-bad-XXXXXX", line[256];
    char mishling[] = "/tmp/sennight-weights-mishling-XXXXXX";
    int fg = mkstemp(good), fb = mkstemp(bad), fm = mkstemp(mishling);
    ck_assert(fg >= 0 && fb >= 0 && fm >= 0);
    ck_assert(write(fg, "tempo 40 40\nlazy-margin 150\n", 28) == 28);
    ck_assert(write(fb, "tempo 40 40\ntempo 3\n", 20) == 20);
    close(fg);
    close(fb);
    struct proc p;
    pipe_start(&p, NULL);
    snprintf(line, sizeof line, "setoption name EvalWeights value %s", good);
    ck_assert(pipe_send(&p, line, 1000) && pipe_send(&p, "eval", 1000));
    const char *got = read_until(&p, "weights ");
    ck_assert_msg(got && strstr(got, good) && strstr(got, "lazy margin 150 cp"), "%s", got ? got : "no weights line");
    got = read_until(&p, "tempo");
    ck_assert_msg(got && strstr(got, "40     40"), "%s", got ? got : "no tempo line");
    snprintf(line, sizeof line, "setoption name EvalWeights value %s", bad);
    ck_assert(pipe_send(&p, line, 1000));
    got = read_until(&p, "info string error");
    ck_assert_msg(got && strstr(got, ":2:"), "%s", got ? got : "no error");
    ck_assert(pipe_send(&p, "setoption name EvalWeights value /nonexistent/weights.txt", 1000));
    ck_assert(read_until(&p, "info string error"));
    ck_assert(pipe_send(&p, "eval", 1000));
    got = read_until(&p, "weights ");
    ck_assert_msg(got && strstr(got, good), "the weights changed: %s", got ? got : "no weights line");
    got = read_until(&p, "tempo");
    ck_assert_msg(got && strstr(got, "40     40"), "%s", got ? got : "no tempo line");
    /* <empty> goes back to the built-in weights. */
    ck_assert(pipe_send(&p, "setoption name EvalWeights value <empty>", 1000) && pipe_send(&p, "eval", 1000));
    got = read_until(&p, "weights ");
    ck_assert_msg(got && strstr(got, "built-in"), "%s", got ? got : "no weights line");
    /* A file for another variant, set before the variant as GUIs do: refused for Glinski, applied to
     * Mishling once it is selected. */
    ck_assert(write(fm, "value.duchess 1234 1234\n", 24) == 24);
    close(fm);
    snprintf(line, sizeof line, "setoption name EvalWeights value %s", mishling);
    ck_assert(pipe_send(&p, line, 1000));
    got = read_until(&p, "info string error");
    ck_assert_msg(got && strstr(got, "duchess"), "%s", got ? got : "no error");
    ck_assert(pipe_send(&p, "setoption name UCI_Variant value mishling", 1000) && pipe_send(&p, "eval", 1000));
    got = read_until(&p, "weights ");
    ck_assert_msg(got && strstr(got, mishling), "%s", got ? got : "no weights line");
    ck_assert(pipe_send(&p, "quit", 1000));
    struct proc_exit x = pipe_wait(&p, (int)(test_timeout(5) * 1000));
    ck_assert(x.exited && x.code == 0);
    proc_end(&p, 0, NULL, 0);
    unlink(good);
    unlink(bad);
    unlink(mishling);
}
END_TEST

/* The nodes of a depth-5 search of Glinski's start with a weights file that sets only the lazy margin. */
static long nodes_with_lazy_margin(int margin)
{
    char path[] = "/tmp/sennight-lazy-XXXXXX", line[256];
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    int n = snprintf(line, sizeof line, "lazy-margin %d\n", margin);
    ck_assert(write(fd, line, (size_t)n) == n);
    close(fd);
    struct proc p;
    pipe_start(&p, NULL);
    snprintf(line, sizeof line, "setoption name EvalWeights value %s", path);
    ck_assert(pipe_send(&p, line, 1000) && pipe_send(&p, "position startpos", 1000) &&
              pipe_send(&p, "go depth 5", 1000));
    long nodes = -1;
    for (const char *l; (l = pipe_read_line(&p, (int)(test_timeout(30) * 1000))) && strncmp(l, "bestmove", 8);) {
        const char *at = strstr(l, " nodes ");
        if (!strncmp(l, "info depth", 10) && at)
            nodes = atol(at + 7);
    }
    ck_assert(pipe_send(&p, "quit", 1000));
    pipe_wait(&p, (int)(test_timeout(5) * 1000));
    proc_end(&p, 0, NULL, 0);
    unlink(path);
    return nodes;
}

/* The lazy margin reaches the search: skipping the positional terms everywhere outside the window
 * (margin 0) searches another tree than never skipping them. */
START_TEST(test_lazy_margin_search)
{
    long never = nodes_with_lazy_margin(10000), always = nodes_with_lazy_margin(0);
    ck_assert(never > 0 && always > 0);
    ck_assert_msg(never != always, "%ld nodes either way", never);
}
END_TEST

/* `sennight tune` with the arguments: its exit code, its standard output in out (lines joined by
 * newlines) and the number of lines it wrote to standard error, the first in err. */
static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    for (int ca = 0, cb = 0; same && ca != EOF; same = ca == cb) {
        ca = fgetc(fa);
        cb = fgetc(fb);
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The executable: a fit on a small datagen file writes a weights file the engine reads, with the
 * report; the same data and seed give the same file; a file given as --weights with no epochs comes
 * back unchanged; bad options exit with 2 and the usage, bad files and data with 1 and one error
 * line, writing nothing. */
START_TEST(test_command_line)
{
    char dir[TEST_DIR_LEN], data[128], cut[128], w1[128], w2[128], w3[128], none[128], out[16384], err[1024];
    char errs[512];
    int lines;
    test_dir_make(dir, "tune");
    ck_assert(dir[0]);
    snprintf(data, sizeof data, "%s/data.bin", dir);
    snprintf(cut, sizeof cut, "%s/cut.bin", dir);
    snprintf(w1, sizeof w1, "%s/w1.txt", dir);
    snprintf(w2, sizeof w2, "%s/w2.txt", dir);
    snprintf(w3, sizeof w3, "%s/w3.txt", dir);
    snprintf(none, sizeof none, "%s/none.txt", dir);
    struct datagen_options dg = { .v = test_variant("glinski"), .games = 4, .nodes = 300, .seed = 3, .shard = 1,
                                  .nshards = 1, .concurrency = 1, .random_plies = 4, .hash_mb = 1,
                                  .adj = datagen_adjudication };
    struct datagen_stats st;
    ck_assert_msg(datagen_run(data, &dg, &st, errs, sizeof errs), "%s", errs);
    ck_assert(st.positions > 20);

    const char *fit[] = { "tune", "--variant", "glinski", "--data", data, "--out", w1, "--epochs", "30", "--seed", "3", NULL };
    ck_assert_int_eq(pipe_run(fit, out, sizeof out, err, sizeof err, &lines), 0);
    ck_assert_msg(lines == 0, "%s", err);
    unsigned long n;
    double k, before, after;
    ck_assert_msg(sscanf(out, "%lu positions of glinski", &n) == 1 && n > 20 && n <= st.positions, "%s", out);
    ck_assert_msg(strstr(out, "K = ") && sscanf(strstr(out, "K = "), "K = %lf", &k) == 1 && k > 0, "%s", out);
    ck_assert_msg(strstr(out, "\nloss ") && sscanf(strstr(out, "\nloss "), "\nloss %lf -> %lf", &before, &after) == 2,
                  "%s", out);
    ck_assert_msg(after < before, "loss %g -> %g", before, after);
    ck_assert_msg(strstr(out, "wrote ") && strstr(out, w1), "%s", out);
    struct eval_params p;
    ck_assert_msg(weights_load_file(test_variant("glinski"), w1, &p, errs, sizeof errs), "%s", errs);
    ck_assert(!weights_load_file(test_variant("glinski"), "tests", &p, errs, sizeof errs));
    ck_assert_str_eq(errs, "tests: not a regular file");

    fit[6] = w2;
    ck_assert_int_eq(pipe_run(fit, out, sizeof out, err, sizeof err, &lines), 0);
    ck_assert_msg(same_file(w1, w2), "two runs with the same seed differ");
    const char *again[] = { "tune", "--variant", "glinski", "--data", data, "--out", w3, "--weights", w1,
                            "--epochs", "0", NULL };
    ck_assert_int_eq(pipe_run(again, out, sizeof out, err, sizeof err, &lines), 0);
    ck_assert_msg(same_file(w1, w3), "--weights with no epochs changed the weights");

    /* Data cut inside a record. */
    FILE *in = fopen(data, "rb"), *to = fopen(cut, "wb");
    ck_assert(in && to);
    for (int i = 0, c; i < 300 && (c = fgetc(in)) != EOF; i++)
        fputc(c, to);
    fclose(in);
    fclose(to);
    /* Each mistake in the options: the usage, after one line saying what is wrong. */
    static const struct {
        const char *args[10], *line;
    } usage[] = {
        { { "tune", NULL }, "--variant, --out and --data are needed" },
        { { "tune", "--data", "x.bin", "--out", "x.txt", NULL }, "--variant, --out and --data are needed" },
        { { "tune", "--variant", "glinski", "--data", "x.bin", "--out", "x.txt", "--lambda", "2", NULL },
          "--lambda: a number from 0 to 1 is expected, not '2'" },
        { { "tune", "--variant", "glinski", "--data", "x.bin", "--out", "x.txt", "--epochs", "-1", NULL },
          "--epochs: a number from 0 to 1000000 is expected, not '-1'" },
        { { "tune", "--variant", "glinski", "--data", "x.bin", "--out", "x.txt", "--threads", NULL },
          "--threads needs a value" },
        { { "tune", "--frobnicate", "1", NULL }, "unknown option '--frobnicate'" },
    };
    for (size_t i = 0; i < sizeof usage / sizeof *usage; i++) {
        char want[256];
        snprintf(want, sizeof want, "sennight tune: %s\n", usage[i].line);
        ck_assert_msg(pipe_run(usage[i].args, out, sizeof out, err, sizeof err, &lines) == 2, "usage case %zu", i);
        ck_assert_msg(!strcmp(err, want) && strstr(out, "usage: sennight tune") == NULL && lines >= 2,
                      "usage case %zu: %s", i, err);
    }
    const char *const bad[][10] = {
        { "tune", "--variant", "nonesuch", "--data", data, "--out", none, NULL },
        { "tune", "--variant", "glinski", "--data", "/nonexistent/x.bin", "--out", none, NULL },
        { "tune", "--variant", "glinski", "--data", cut, "--out", none, NULL },
        { "tune", "--variant", "mccooey", "--data", data, "--out", none, NULL },
        { "tune", "--variant", "glinski", "--data", data, "--out", none, "--weights", data, NULL },
        { "tune", "--variant", "glinski", "--data", data, "--out", "/nonexistent/w.txt", "--epochs", "1", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_msg(pipe_run(bad[i], out, sizeof out, err, sizeof err, &lines) == 1, "case %zu: %s", i, err);
        ck_assert_msg(lines == 1 && !strncmp(err, "sennight tune: ", 15), "case %zu: %d lines: %s", i, lines, err);
        ck_assert_msg(access(none, F_OK), "case %zu wrote %s", i, none);
    }
    ck_assert(access("x.txt", F_OK));
    test_dir_remove(dir);
}
END_TEST

Suite *suite_tune(void)
{
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");
    tcase_add_checked_fixture(tc, registry_setup, NULL);
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_test(tc, test_weights_round_trip);
    tcase_add_test(tc, test_weights_cuts);
    tcase_add_test(tc, test_weights_bad_fields);
    tcase_add_test(tc, test_family_weights);
    tcase_add_test(tc, test_trace_exact);
    tcase_add_test(tc, test_blocked_pawns);
    tcase_add_test(tc, test_trace_symmetric);
    tcase_add_test(tc, test_tuner_recovers);
    tcase_add_test(tc, test_tuner_recovers_leader);
    tcase_add_test(tc, test_leader_counts);
    tcase_add_test(tc, test_leader_counts_four_players);
    tcase_add_test(tc, test_eval_weights_option);
    tcase_add_test(tc, test_lazy_margin_search);
    tcase_add_test(tc, test_command_line);
    suite_add_tcase(s, tc);
    return s;
}
