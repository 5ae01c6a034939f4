/* The learned evaluation (docs/nnue.md): net files and their refusals, accumulators kept by make and
 * unmake against a refresh in every variant, the AVX2 and portable layers against a plain evaluation from
 * the file, the trainer's features, and UseNNUE / EvalFile through the executable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../datagen/features.h"
#include "../eval/nets.h"
#include "../eval/nnue.h"
#include "../games/datagen_format.h"
#include "../rules/registry.h"
#include "../rules/score.h"
#include "../util/le.h"
#include "../util/random.h"
#include "engine_pipe.h"
#include "tests.h"

static void write_file(const char *path, const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f && fwrite(b, 1, len, f) == len, "cannot write %s", path);
    fclose(f);
}

/* A random net for v written to dir/<name>.nnue (path), its bytes in *bytes if wanted. */
static struct nnue_net *random_net_file(const struct variant *v, const char *dir, uint64_t seed, char *path,
                                        size_t pathlen)
{
    struct nnue_net *net = nnue_random(v, seed);
    size_t len;
    unsigned char *b = nnue_to_bytes(net, &len);
    ck_assert(net && b);
    snprintf(path, pathlen, "%s/%s.nnue", dir, v->name);
    write_file(path, b, len);
    free(b);
    return net;
}

/* The tests' choice of nets, which the games that should evaluate with them take (game_use_nets). */
static struct nnue_choice nets;

/* The net of the file for v, on. */
static void use_net_file(const struct variant *v, const char *path)
{
    char err[512];
    nets.use = true;
    ck_assert_msg(nnue_choice_add_file(&nets, path, err, sizeof err) == v, "%s: %s", path, err);
}

/* One line: no newline in an error message. */
static void assert_one_line(const char *err)
{
    ck_assert_msg(err[0] && !strchr(err, '\n'), "expected one error line, got '%s'", err);
}

START_TEST(test_round_trip)
{
    const struct variant *v = test_variant(_i ? "wellisch" : "glinski");
    struct nnue_net *net = nnue_random(v, 5);
    size_t len, len2;
    unsigned char *b = nnue_to_bytes(net, &len);
    char err[512];
    struct nnue_net *back = nnue_from_bytes(b, len, v, err, sizeof err);
    ck_assert_msg(back, "%s", err);
    ck_assert_str_eq(back->variant, v->name);
    ck_assert_uint_eq(back->fingerprint, v->fingerprint);
    ck_assert_int_eq(back->scale, net->scale);
    ck_assert(!memcmp(back->ft.weight, net->ft.weight, (size_t)net->ft.view.nfeatures * NNUE_HIDDEN * 2));
    ck_assert(!memcmp(back->ft.psqt_weight, net->ft.psqt_weight, (size_t)net->ft.view.nfeatures * 4));
    /* The used inputs' chunks come first. */
    ck_assert(!memcmp(back->l1_weight, net->l1_weight, (size_t)v->nplayers * NNUE_HIDDEN * NNUE_L1));
    ck_assert(!memcmp(back->l2_weight, net->l2_weight, sizeof net->l2_weight));
    ck_assert(!memcmp(back->out_weight, net->out_weight, sizeof net->out_weight));
    ck_assert(back->out_bias == net->out_bias && !memcmp(back->l1_bias, net->l1_bias, sizeof net->l1_bias)
              && !memcmp(back->l2_bias, net->l2_bias, sizeof net->l2_bias)
              && !memcmp(back->ft.bias, net->ft.bias, sizeof net->ft.bias));
    unsigned char *again = nnue_to_bytes(back, &len2);
    ck_assert(len2 == len && !memcmp(b, again, len));
    /* The header names the variant and the architecture where docs/nnue.md says. */
    ck_assert(!memcmp(b, "SNNUE\r\n\x1a", 8) && le_get(b + 8, 4) == NNUE_VERSION);
    ck_assert_uint_eq(le_get(b + 12, 8), v->fingerprint);
    ck_assert_str_eq((const char *)b + 20, v->name);
    ck_assert_int_eq((int)le_get(b + 56, 2), v->nplayers);
    ck_assert_int_eq((int)le_get(b + 60, 2), v->geo.ncells);
    free(b);
    free(again);
    nnue_free(net);
    nnue_free(back);
}
END_TEST

/* A net for another variant, every cut, extra bytes, a changed byte anywhere: refused in one line. */
START_TEST(test_refused)
{
    const struct variant *v = test_variant("glinski"), *other = test_variant("mccooey");
    struct nnue_net *net = nnue_random(v, 9);
    size_t len;
    unsigned char *b = nnue_to_bytes(net, &len);
    char err[512] = "";
    ck_assert(!nnue_from_bytes(b, len, other, err, sizeof err));
    assert_one_line(err);
    ck_assert_msg(strstr(err, "'glinski'") && strstr(err, "mccooey"), "%s", err);
    for (size_t cut = 0; cut < len; cut += cut < 200 ? 1 : 997) {
        err[0] = 0;
        ck_assert_msg(!nnue_from_bytes(b, cut, v, err, sizeof err), "cut at %zu accepted", cut);
        assert_one_line(err);
    }
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, b, len);
    longer[len] = 0;
    ck_assert(!nnue_from_bytes(longer, len + 1, v, err, sizeof err));
    assert_one_line(err);
    free(longer);
    uint64_t random = 4;
    for (int i = 0; i < 300; i++) {
        size_t at = i < 84 ? (size_t)i : random_next(&random) % len;
        b[at] ^= (unsigned char)(1 + random_next(&random) % 255);
        err[0] = 0;
        ck_assert_msg(!nnue_from_bytes(b, len, v, err, sizeof err), "a change at byte %zu accepted", at);
        assert_one_line(err);
        free(b);
        b = nnue_to_bytes(net, &len);
    }
    ck_assert(!nnue_load("/nonexistent/net.nnue", v, err, sizeof err));
    assert_one_line(err);
    ck_assert(!nnue_choice_add_file(&nets, "/nonexistent/net.nnue", err, sizeof err));
    assert_one_line(err);
    ck_assert(!nnue_load("tests", v, err, sizeof err));
    ck_assert_str_eq(err, "tests: not a regular file");
    /* Without a variant, the one the header names: known, or refused. */
    struct nnue_net *named = nnue_from_bytes(b, len, NULL, err, sizeof err);
    ck_assert_msg(named && !strcmp(named->variant, "glinski"), "%s", err);
    nnue_free(named);
    memcpy(b + 20, "nosuch", 7);
    ck_assert(!nnue_from_bytes(b, len, NULL, err, sizeof err));
    assert_one_line(err);
    ck_assert_msg(strstr(err, "'nosuch'"), "%s", err);
    free(b);
    nnue_free(net);
}
END_TEST

/* The accumulators of the game's position, perspective by perspective; zeros for armies the variant
 * does not have. */
static void get_acc(const struct game *g, struct accumulator acc[MAX_PLAYERS])
{
    memset(acc, 0, MAX_PLAYERS * sizeof *acc);
    for (int p = 0; p < g->v->nplayers; p++)
        acc[p] = *g->ops->nnue_accumulator(g->pos, p);
}

/* The accumulators of the game's position as the test sums them from its board, feature by feature,
 * against the engine's. */
static void assert_acc_is_board(const struct game *g, const struct nnue_net *net, const struct accumulator *acc,
                                const char *where)
{
    struct setup s;
    g->ops->position_get(g->pos, &s);
    for (int p = 0; p < g->v->nplayers; p++) {
        int sum[NNUE_HIDDEN], psqt = 0;
        for (int i = 0; i < NNUE_HIDDEN; i++)
            sum[i] = net->ft.bias[i];
        for (int c = 0; c < g->v->geo.ncells; c++) {
            if (!s.piece[c])
                continue;
            int f = feature_index(&net->ft.view, p, s.piece[c], c);
            psqt += net->ft.psqt_weight[f];
            for (int i = 0; i < NNUE_HIDDEN; i++)
                sum[i] += net->ft.weight[(size_t)f * NNUE_HIDDEN + i];
        }
        /* One assertion a perspective: each one is a write to Check's pipe. */
        int i = 0;
        while (i < NNUE_HIDDEN && (int16_t)sum[i] == acc[p].v[i])
            i++;
        ck_assert_msg(i == NNUE_HIDDEN && psqt == acc[p].psqt, "%s %s: perspective %d, sum %d", g->v->name, where, p,
                      i);
    }
}

/* Whether each army's pieces stand where the players' maps take the first army's. */
static bool start_symmetric(const struct game *g)
{
    struct setup s;
    int count[MAX_PLAYERS] = { 0 };
    g->ops->position_get(g->pos, &s);
    for (int c = 0; c < g->v->geo.ncells; c++) {
        if (!s.piece[c])
            continue;
        count[piece_colour(s.piece[c])]++;
        for (int p = 1; p < g->v->nplayers && piece_colour(s.piece[c]) == 0; p++)
            if (s.piece[variant_map_cell(g->v, c, p)] != piece_make(p, piece_type(s.piece[c])))
                return false;
    }
    return count[1] == count[0] && (g->v->nplayers < 3 || count[2] == count[0]);
}

/* Every variant with a random net: in the start position every perspective sees the same; along random games, the
 * accumulators kept by make (and the three-player eliminations) equal those of the same position set up afresh, and
 * every legal move made and unmade gives them back bit for bit. Curved pieces, Fusion and fission, three armies. */
START_TEST(test_incremental)
{
    char dir[TEST_DIR_LEN], path[256], err[512], fen[2048];
    test_dir_make(dir, "nnue");
    ck_assert(dir[0]);
    test_variant("glinski");
    uint64_t random = 17;
    int symmetric = 0;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        nnue_free(random_net_file(v, dir, (uint64_t)i + 1, path, sizeof path));
        use_net_file(v, path);
        struct game g = { .nets = &nets }, fresh = { .nets = &nets };
        ck_assert_msg(game_init(&g, v, _i, err, sizeof err) && game_init(&fresh, v, _i, err, sizeof err), "%s", err);
        ck_assert_int_ne(g.ops->nnue_evaluate(g.tb, g.pos), SCORE_NONE);
        /* Where the start array is symmetric under the players' maps, every army sees the same. */
        struct accumulator start[MAX_PLAYERS];
        get_acc(&g, start);
        if (start_symmetric(&g)) {
            symmetric++;
            for (int p = 1; p < v->nplayers; p++)
                ck_assert_msg(!memcmp(&start[0], &start[p], sizeof start[0]), "%s: army %d sees another start", v->name,
                              p);
        }
        for (int ply = 0; ply < 40; ply++) {
            move_t list[MAX_MOVES];
            int n = game_legal_moves(&g, list);
            if (!n || game_status(&g).outcome != GAME_ONGOING)
                break;
            struct accumulator acc[MAX_PLAYERS], again[MAX_PLAYERS];
            get_acc(&g, acc);
            for (int k = 0; k < n; k++) {
                g.ops->position_make(g.pos, list[k]);
                /* A sample of the children, each computed from its parent (test_stack tries more). */
                if ((k + ply) % (10 * test_sample()) == 0) {
                    get_acc(&g, again);
                    assert_acc_is_board(&g, nnue_choice_for(&nets, v), again, "after a move");
                }
                g.ops->position_unmake(g.pos, list[k]);
                get_acc(&g, again);
                ck_assert_msg(!memcmp(acc, again, sizeof acc), "%s: make and unmake change the accumulators", v->name);
            }
            game_play(&g, list[random_next(&random) % (uint64_t)n], NULL);
            game_fen(&g, fen, sizeof fen);
            ck_assert_msg(game_set_position(&fresh, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
            get_acc(&g, acc);
            get_acc(&fresh, again);
            ck_assert_msg(!memcmp(acc, again, sizeof acc), "%s at %s: incremental != refresh", v->name, fen);
            ck_assert_int_eq(g.ops->nnue_evaluate(g.tb, g.pos), fresh.ops->nnue_evaluate(fresh.tb, fresh.pos));
        }
        game_free(&g);
        game_free(&fresh);
    }
    ck_assert_int_ge(symmetric, 21);
    nets.use = false;
    nnue_choice_clear(&nets);
    test_dir_remove(dir);
}
END_TEST

/* The accumulator stack: random lines of moves made and unmade as a search makes them (three players:
 * armies taken off and put back), deeper than the stack holds, the accumulators asked for at random
 * states (so computed from a parent, from an ancestor several moves back, or from the board): each time
 * what the board gives. */
START_TEST(test_stack)
{
    static const char *names[] = { "glinski", "full-house", "mishling-fusion", "waitress-fusion-swap", "wellisch",
                                   "nd-mccooey-3p" };
    const struct variant *v = test_variant(names[_i]);
    char dir[TEST_DIR_LEN], path[256];
    test_dir_make(dir, "nnue-stack");
    struct nnue_net *net = random_net_file(v, dir, 61 + (uint64_t)_i, path, sizeof path);
    use_net_file(v, path);
    struct game g;
    test_game(&g, v->name, NULL, false);
    game_use_nets(&g, &nets);
    enum { DEEPEST = ACC_STACK + 30 };
    move_t line[DEEPEST];
    int removed[DEEPEST], depth = 0, checked = 0;
    uint64_t random = 91 + (uint64_t)_i;
    for (int step = 0; step < 3000; step++) {
        move_t list[MAX_MOVES];
        int n = depth < DEEPEST && (depth == 0 || random_next(&random) % 4) ? g.ops->movegen_legal(g.pos, list) : 0;
        if (n) {
            enum turn_end end;
            line[depth] = list[random_next(&random) % (uint64_t)n];
            g.ops->position_make(g.pos, line[depth]);
            removed[depth++] = g.ops->position_resolve(g.pos, &end);
        } else if (depth) {
            depth--;
            g.ops->position_unresolve(g.pos, removed[depth]);
            g.ops->position_unmake(g.pos, line[depth]);
        } else
            break;
        if (random_next(&random) % 3 == 0 && step % test_sample() == 0) {
            struct accumulator acc[MAX_PLAYERS];
            get_acc(&g, acc);
            char where[128];
            snprintf(where, sizeof where, "step %d depth %d", step, depth);
            assert_acc_is_board(&g, net, acc, where);
            checked++;
        }
    }
    ck_assert_int_ge(checked, 100 / test_sample());
    game_free(&g);
    nnue_free(net);
    nets.use = false;
    nnue_choice_clear(&nets);
    test_dir_remove(dir);
}
END_TEST

/* A net with its file's bytes, from which the tests compute the layers the plain way. */
struct net_file {
    struct nnue_net *net;
    unsigned char *bytes;
};

static struct net_file net_file_of(struct nnue_net *net)
{
    size_t len;
    struct net_file f = { net, nnue_to_bytes(net, &len) };
    ck_assert(net && f.bytes);
    return f;
}

static void net_file_free(struct net_file *f)
{
    nnue_free(f->net);
    free(f->bytes);
}

/* The layers' output computed from the file's bytes (weights output by output, as docs/nnue.md lays
 * them out): what both the portable and the AVX2 layers must give. */
static int32_t forward_from_file(const struct net_file *f, const struct accumulator *const acc[MAX_PLAYERS])
{
    int nf = f->net->ft.view.nfeatures, n = f->net->ft.view.nplayers * NNUE_HIDDEN;
    const unsigned char *l1 = f->bytes + NNUE_HEADER + 2 * NNUE_HIDDEN + (2 * NNUE_HIDDEN + 4) * (size_t)nf;
    const unsigned char *l2 = l1 + 4 * NNUE_L1 + NNUE_L1 * n, *out = l2 + 4 * NNUE_L2 + NNUE_L2 * NNUE_L1;
    int in[NNUE_MAX_INPUTS], h1[NNUE_L1], h2[NNUE_L2];
    for (int i = 0; i < n; i++) {
        int x = acc[i / NNUE_HIDDEN]->v[i % NNUE_HIDDEN];
        in[i] = x < 0 ? 0 : x > 127 ? 127 : x;
    }
    for (int o = 0; o < NNUE_L1; o++) {
        int32_t sum = (int32_t)le_get(l1 + 4 * o, 4);
        for (int i = 0; i < n; i++)
            sum += in[i] * (int8_t)l1[4 * NNUE_L1 + o * n + i];
        h1[o] = sum <= 0 ? 0 : sum / 64 > 127 ? 127 : sum / 64;
    }
    for (int o = 0; o < NNUE_L2; o++) {
        int32_t sum = (int32_t)le_get(l2 + 4 * o, 4);
        for (int i = 0; i < NNUE_L1; i++)
            sum += h1[i] * (int8_t)l2[4 * NNUE_L2 + o * NNUE_L1 + i];
        h2[o] = sum <= 0 ? 0 : sum / 64 > 127 ? 127 : sum / 64;
    }
    int32_t sum = 0;
    for (int o = 0; o < NNUE_L2; o++)
        sum += h2[o] * (int16_t)le_get(out + 4 + 2 * o, 2);
    return sum;
}

/* The layers by the portable loops, by AVX2 where the processor has it, and from the file's bytes:
 * the same integers. */
static void assert_forward(const struct net_file *f, const struct accumulator *const acc[MAX_PLAYERS],
                           const char *where)
{
    int32_t portable = nnue_forward_portable(f->net, acc), plain = forward_from_file(f, acc);
    ck_assert_msg(portable == plain, "%s: portable %d, from the file %d", where, portable, plain);
    nnue_forward_fn avx2 = nnue_forward_avx2();
    if (avx2)
        ck_assert_msg(avx2(f->net, acc) == portable, "%s: AVX2 %d, portable %d", where, avx2(f->net, acc), portable);
}

/* Random accumulators, and extremes (every input saturated, first-layer weights all -128 or all 127,
 * where a saturating 16-bit step would show): every path agrees. */
START_TEST(test_forward)
{
    const char *names[] = { "glinski", "wellisch", "nd-wellisch-4p" };
    uint64_t random = 23;
    for (int k = 0; k < 3; k++) {
        const struct variant *v = test_variant(names[k]);
        struct net_file f = net_file_of(nnue_random(v, 31 + (uint64_t)k));
        static struct accumulator acc[MAX_PLAYERS];
        const struct accumulator *order[MAX_PLAYERS] = { &acc[0], &acc[1], &acc[2], &acc[3] };
        char where[128];
        for (int round = 0; round < 300; round++) {
            for (int p = 0; p < MAX_PLAYERS; p++)
                for (int i = 0; i < NNUE_HIDDEN; i++) {
                    uint64_t r = random_next(&random);
                    acc[p].v[i] = (int16_t)(round % 2 ? (int)(r % 65536) - 32768 : (int)(r % 160) - 20);
                }
            snprintf(where, sizeof where, "%s round %d", v->name, round);
            assert_forward(&f, order, where);
        }
        for (int p = 0; p < MAX_PLAYERS; p++)
            for (int i = 0; i < NNUE_HIDDEN; i++)
                acc[p].v[i] = INT16_MAX;
        for (int sign = 0; sign < 2; sign++) {
            struct net_file e = net_file_of(nnue_random(v, 31 + (uint64_t)k));
            memset(e.net->l1_weight, sign ? 0x7f : 0x80, (size_t)v->nplayers * NNUE_HIDDEN * NNUE_L1);
            free(e.bytes);
            e = net_file_of(e.net);
            snprintf(where, sizeof where, "%s extreme %d", v->name, sign);
            assert_forward(&e, order, where);
            net_file_free(&e);
        }
        net_file_free(&f);
    }
}
END_TEST

/* The layers along random games of v: the same integers by every path. */
static void assert_forward_along_games(const struct variant *v, const struct net_file *f, uint64_t random)
{
    for (int game = 0; game < 3; game++) {
        struct game g;
        test_game(&g, v->name, NULL, false);
        game_use_nets(&g, &nets);
        for (int ply = 0; ply < 80; ply++) {
            const struct accumulator *acc[MAX_PLAYERS];
            for (int p = 0; p < v->nplayers; p++)
                acc[p] = g.ops->nnue_accumulator(g.pos, (g.ops->position_side(g.pos) + p) % v->nplayers);
            char where[128];
            snprintf(where, sizeof where, "%s game %d ply %d", v->name, game, ply);
            assert_forward(f, acc, where);
            move_t list[MAX_MOVES];
            int n = game_legal_moves(&g, list);
            if (!n || game_status(&g).outcome != GAME_ONGOING)
                break;
            game_play(&g, list[random_next(&random) % (uint64_t)n], NULL);
        }
        game_free(&g);
    }
}

/* Whole evaluations of positions from random games, two, three and four players, by random nets and by
 * every shipped net (trained weights are not spread like random ones). */
START_TEST(test_forward_games)
{
    const char *names[] = { "glinski", "wellisch", "mishling-fusion", "full-house", "nd-wellisch-4p" };
    for (int k = 0; k < 5; k++) {
        char dir[TEST_DIR_LEN], path[256];
        test_dir_make(dir, "nnue-simd");
        const struct variant *v = test_variant(names[k]);
        struct net_file f = net_file_of(random_net_file(v, dir, 31 + (uint64_t)k, path, sizeof path));
        use_net_file(v, path);
        assert_forward_along_games(v, &f, 7 + (uint64_t)k);
        net_file_free(&f);
        test_dir_remove(dir);
    }
    /* The game's accumulators are the shipped net's once the files are cleared. */
    nnue_choice_clear(&nets);
    nets.use = true;
    for (int i = 0; nnue_embedded[i].name; i++) {
        char err[512];
        const struct variant *v = test_variant(nnue_embedded[i].name);
        struct nnue_net *net = nnue_from_bytes(nnue_embedded[i].data, nnue_embedded[i].len, v, err, sizeof err);
        ck_assert_msg(net, "%s: %s", nnue_embedded[i].path, err);
        struct net_file f = net_file_of(net);
        assert_forward_along_games(v, &f, 71 + (uint64_t)i);
        net_file_free(&f);
    }
    nets.use = false;
}
END_TEST

/* The trainer's features of a position sum, with the bias, to the engine's accumulators of it, for
 * each perspective in the order the trainer takes them (the mover's first). */
START_TEST(test_features)
{
    static const char *names[] = { "glinski", "wellisch", "mishling-fusion", "mccooey", "full-house" };
    const struct variant *v = test_variant(names[_i]);
    enum { PLIES = 50 };
    char dir[TEST_DIR_LEN], path[256], data[256], feats[256], err[512];
    test_dir_make(dir, "nnue-feat");
    struct nnue_net *net = random_net_file(v, dir, 41, path, sizeof path);
    use_net_file(v, path);
    static struct accumulator want[PLIES][MAX_PLAYERS];
    int score[PLIES];
    struct game g;
    test_game(&g, names[_i], NULL, false);
    game_use_nets(&g, &nets);
    snprintf(data, sizeof data, "%s/data.bin", dir);
    snprintf(feats, sizeof feats, "%s/data.feat", dir);
    FILE *f = fopen(data, "wb");
    uint64_t random = 5;
    int n = 0;
    for (; n < PLIES; n++) {
        move_t list[MAX_MOVES];
        int moves = game_legal_moves(&g, list);
        if (!moves || game_status(&g).outcome != GAME_ONGOING)
            break;
        struct datagen_record r = { .v = v, .score = n * 7 - 100, .den = 2, .move = list[0] };
        g.ops->position_get(g.pos, &r.s);
        r.points[r.s.side] = 2;
        for (int p = 0; p < v->nplayers; p++)
            r.place[p] = p == r.s.side ? 1 : 2;
        r.wdl = datagen_wdl(r.place, v->nplayers, r.s.side);
        unsigned char rec[DATAGEN_RECORD_SIZE];
        ck_assert(datagen_encode(&r, rec) && fwrite(rec, sizeof rec, 1, f) == 1);
        score[n] = r.score;
        for (int k = 0; k < v->nplayers; k++)
            want[n][k] = *g.ops->nnue_accumulator(g.pos, (r.s.side + k) % v->nplayers);
        game_play(&g, list[random_next(&random) % (uint64_t)moves], NULL);
    }
    fclose(f);
    struct features_stats st;
    ck_assert_msg(features_convert(data, feats, &st, err, sizeof err), "%s", err);
    ck_assert_int_eq((int)st.records, n);
    f = fopen(feats, "rb");
    unsigned char h[FEATURES_HEADER];
    ck_assert(fread(h, sizeof h, 1, f) == 1 && !memcmp(h, "SNFEAT\r\n", 8));
    ck_assert_uint_eq(le_get(h + 8, 8), v->fingerprint);
    ck_assert_int_eq((int)le_get(h + 60, 4), net->ft.view.nfeatures);
    ck_assert_int_eq((int)le_get(h + 64, 4), st.slots);
    ck_assert_int_eq((int)le_get(h + 68, 4), n);
    size_t size = 4 + 2 * (size_t)v->nplayers * (size_t)st.slots;
    unsigned char *rec = malloc(size);
    for (int i = 0; i < n; i++) {
        ck_assert(fread(rec, size, 1, f) == 1);
        ck_assert_int_eq((int16_t)le_get(rec, 2), score[i]);
        ck_assert_int_eq((int)le_get(rec + 2, 2), 1000);
        for (int k = 0; k < v->nplayers; k++) {
            int sum[NNUE_HIDDEN], psqt = 0;
            for (int j = 0; j < NNUE_HIDDEN; j++)
                sum[j] = net->ft.bias[j];
            for (int s = 0; s < st.slots; s++) {
                int feature = (int)le_get(rec + 4 + 2 * (k * st.slots + s), 2);
                ck_assert_int_le(feature, net->ft.view.nfeatures);
                psqt += feature < net->ft.view.nfeatures ? net->ft.psqt_weight[feature] : 0;
                for (int j = 0; j < NNUE_HIDDEN && feature < net->ft.view.nfeatures; j++)
                    sum[j] += net->ft.weight[(size_t)feature * NNUE_HIDDEN + j];
            }
            for (int j = 0; j < NNUE_HIDDEN; j++)
                ck_assert_msg((int16_t)sum[j] == want[i][k].v[j], "%s record %d perspective %d", v->name, i, k);
            ck_assert_int_eq(psqt, want[i][k].psqt);
        }
    }
    ck_assert(fread(rec, 1, 1, f) == 0);
    fclose(f);
    free(rec);
    game_free(&g);
    nnue_free(net);
    test_dir_remove(dir);
}
END_TEST

/* Every shipped net loads for its variant, scores the start position near 0 and an army without its
 * pieces (pawns and royal left) as lost: a net whose layers saturate scores both alike. */
START_TEST(test_shipped)
{
    char err[512], fen[2048];
    nets.use = true;
    for (int i = 0; nnue_embedded[i].name; i++) {
        struct game g;
        test_game(&g, nnue_embedded[i].name, NULL, false);
        game_use_nets(&g, &nets);
        int start = g.ops->nnue_evaluate(g.tb, g.pos);
        ck_assert_msg(start != SCORE_NONE, "%s: the shipped net does not load", g.v->name);
        ck_assert_msg(abs(start) <= 150, "%s: the start position scores %d", g.v->name, start);
        struct setup s;
        g.ops->position_get(g.pos, &s);
        for (int c = 0; c < g.v->geo.ncells; c++) {
            int t = piece_type(s.piece[c]);
            if (s.piece[c] && piece_colour(s.piece[c]) != s.side && !g.v->piece[t].pawn && !g.v->piece[t].royal)
                s.piece[c] = 0;
        }
        s.castling = 0;
        setup_to_fen(&s, g.v, fen, sizeof fen);
        ck_assert_msg(game_set_position(&g, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
        int up = g.ops->nnue_evaluate(g.tb, g.pos);
        ck_assert_msg(up >= 1500, "%s: the side to move a whole army up scores only %d", g.v->name, up);
        game_free(&g);
    }
    nets.use = false;
}
END_TEST

/* The choice of nets is a game's, not the process's: two games side by side, one with the shipped
 * nets and one classical, each keeping its choice through a variant change and when the other's
 * changes. */
START_TEST(test_choices_apart)
{
    struct nnue_choice on = { .use = true }, off = { .use = false };
    struct game a = { .nets = &on }, b = { .nets = &off }, none = { 0 };
    const struct variant *first = test_variant(nnue_embedded[0].name), *second = test_variant(nnue_embedded[1].name);
    char err[512];
    ck_assert_msg(game_init(&a, first, false, err, sizeof err) && game_init(&b, first, false, err, sizeof err)
                      && game_init(&none, first, false, err, sizeof err), "%s", err);
    ck_assert_int_ne(a.ops->nnue_evaluate(a.tb, a.pos), SCORE_NONE);
    ck_assert_int_eq(b.ops->nnue_evaluate(b.tb, b.pos), SCORE_NONE);
    ck_assert_int_eq(none.ops->nnue_evaluate(none.tb, none.pos), SCORE_NONE);
    ck_assert_msg(game_init(&a, second, false, err, sizeof err) && game_init(&b, second, false, err, sizeof err), "%s",
                  err);
    ck_assert_int_ne(a.ops->nnue_evaluate(a.tb, a.pos), SCORE_NONE);
    ck_assert_int_eq(b.ops->nnue_evaluate(b.tb, b.pos), SCORE_NONE);
    off.use = true;
    game_use_nets(&b, &off);
    on.use = false;
    game_use_nets(&a, &on);
    ck_assert_int_eq(a.ops->nnue_evaluate(a.tb, a.pos), SCORE_NONE);
    ck_assert_int_ne(b.ops->nnue_evaluate(b.tb, b.pos), SCORE_NONE);
    char what[256];
    nnue_describe(&on, second, what, sizeof what);
    ck_assert_str_eq(what, "classical (UseNNUE is off)");
    nnue_describe(&off, second, what, sizeof what);
    ck_assert_msg(!strncmp(what, "NNUE ", 5), "%s", what);
    game_free(&a);
    game_free(&b);
    game_free(&none);
}
END_TEST

static int reply_ms(void)
{
    return (int)(test_timeout(5.0) * 1000);
}

/* Sends the lines and isready; returns everything printed before readyok. */
static const char *uci(struct proc *p, const char *lines)
{
    static char out[16384];
    size_t len = 0;
    char script[4096];
    snprintf(script, sizeof script, "%s\nisready", lines);
    ck_assert(pipe_send(p, script, reply_ms()));
    out[0] = 0;
    for (const char *line; (line = pipe_read_line(p, reply_ms())) && strcmp(line, "readyok");)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s\n", line);
    return out;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *s = text; (s = strstr(s, what)); s++)
        n++;
    return n;
}

/* Other evaluation weights rescore the position's material and piece-cell sums, never the net's
 * accumulators: the shipped net's score stays. */
START_TEST(test_weights_keep_net_score)
{
    struct proc p;
    pipe_start(&p, NULL);
    const char *o = uci(&p, "setoption name UseNNUE value true\neval");
    ck_assert_msg(strstr(o, "NNUE evaluation: "), "%s", o);
    char before[256];
    snprintf(before, sizeof before, "%s", strstr(o, "NNUE evaluation: "));
    *strchr(before, '\n') = 0;
    for (int i = 0; i < 2; i++) {
        o = uci(&p, "setoption name EvalWeights value eval/weights/glinski.txt\neval");
        ck_assert_msg(!strstr(o, "error") && strstr(o, before), "expected '%s' in:\n%s", before, o);
    }
    ck_assert(pipe_send(&p, "quit", reply_ms()));
    struct proc_exit x = pipe_wait(&p, reply_ms());
    ck_assert_msg(x.exited && x.code == 0, "the engine did not exit cleanly");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* UseNNUE and EvalFile: a file's net evaluates; a net for another variant, a cut file and a missing
 * one are each refused in one error line, and the engine keeps the evaluation it had. */
START_TEST(test_protocol)
{
    char dir[TEST_DIR_LEN], glinski[256], mccooey[256], cut[300], cmd[512];
    test_dir_make(dir, "nnue-uci");
    nnue_free(random_net_file(test_variant("glinski"), dir, 3, glinski, sizeof glinski));
    nnue_free(random_net_file(test_variant("mccooey"), dir, 4, mccooey, sizeof mccooey));
    snprintf(cut, sizeof cut, "%s/cut.nnue", dir);
    FILE *in = fopen(glinski, "rb"), *out = fopen(cut, "wb");
    unsigned char buf[5000];
    size_t got = fread(buf, 1, sizeof buf, in);
    fwrite(buf, 1, got, out);
    fclose(in);
    fclose(out);
    struct proc p;
    pipe_start(&p, NULL);
    const char *o = uci(&p, "uci");
    ck_assert_msg(strstr(o, "option name UseNNUE type check default false")
                      && strstr(o, "option name EvalFile type string"),
                  "%s", o);
    o = uci(&p, "eval");
    ck_assert_msg(!strstr(o, "NNUE evaluation"), "%s", o);
    snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s\nsetoption name UseNNUE value true\neval", glinski);
    o = uci(&p, cmd);
    ck_assert_msg(strstr(o, "info string evaluation: NNUE") && strstr(o, "NNUE evaluation: "), "%s", o);
    char before[256];
    snprintf(before, sizeof before, "%s", strstr(o, "NNUE evaluation: "));
    *strchr(before, '\n') = 0;
    const char *bad[] = { cut, "/nonexistent/x.nnue" };
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s\neval", bad[i]);
        o = uci(&p, cmd);
        ck_assert_msg(count_of(o, "info string error:") == 1 && strstr(o, before), "%s: %s", bad[i], o);
    }
    /* A net for another variant is kept for that variant; this game keeps its net. */
    snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s\neval", mccooey);
    o = uci(&p, cmd);
    ck_assert_msg(strstr(o, "a net for mccooey; glinski keeps its evaluation: NNUE") && strstr(o, before)
                      && !strstr(o, "error"),
                  "%s", o);
    o = uci(&p, "setoption name UCI_Variant value mccooey\nsetoption name UseNNUE value true");
    ck_assert_msg(strstr(o, "evaluation: NNUE") && strstr(o, "(mccooey)"), "%s", o);
    o = uci(&p, "setoption name UCI_Variant value glinski\nsetoption name EvalFile value <empty>\neval");
    ck_assert_msg(!strstr(o, "info string"), "%s", o);
    o = uci(&p, "setoption name UseNNUE value false\neval");
    ck_assert_msg(!strstr(o, "info string") && !strstr(o, "NNUE evaluation"), "%s", o);
    /* A search with the net ends with a move. */
    snprintf(cmd, sizeof cmd,
             "setoption name EvalFile value %s\nsetoption name UseNNUE value true\nposition startpos moves f5f6",
             glinski);
    o = uci(&p, cmd);
    ck_assert_msg(strstr(o, "evaluation: NNUE"), "%s", o);
    ck_assert(pipe_send(&p, "go depth 4", reply_ms()));
    const char *line;
    while ((line = pipe_read_line(&p, reply_ms())) && strncmp(line, "bestmove", 8))
        ck_assert_msg(!strstr(line, "error"), "%s", line);
    ck_assert(line);
    ck_assert(pipe_send(&p, "quit", reply_ms()));
    struct proc_exit x = pipe_wait(&p, reply_ms());
    ck_assert_msg(x.exited && x.code == 0, "the engine did not exit cleanly");
    proc_end(&p, 0, NULL, 0);
    test_dir_remove(dir);
}
END_TEST

Suite *suite_nnue(void)
{
    Suite *s = suite_create("nnue");
    TCase *tc = tcase_create("nnue");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_loop_test(tc, test_round_trip, 0, 2);
    tcase_add_test(tc, test_refused);
    tcase_add_loop_test(tc, test_incremental, 0, 2);
    tcase_add_loop_test(tc, test_stack, 0, 6);
    tcase_add_test(tc, test_forward);
    tcase_add_test(tc, test_forward_games);
    tcase_add_loop_test(tc, test_features, 0, 5);
    tcase_add_test(tc, test_shipped);
    tcase_add_test(tc, test_choices_apart);
    tcase_add_test(tc, test_protocol);
    tcase_add_test(tc, test_weights_keep_net_score);
    suite_add_tcase(s, tc);
    return s;
}
