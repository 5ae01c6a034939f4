/* The training data generator: the record format and its reader, reproducible bytes, shards that
 * concatenate into the unsharded file, quiet positions only, three players, the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../datagen/datagen.h"
#include "../eval/weights.h"
#include "../games/lines.h"
#include "../games/datagen_format.h"
#include "../rules/registry.h"
#include "../util/random.h"
#include "../util/shard.h"
#include "engine_pipe.h"
#include "tests.h"

static char dir[TEST_DIR_LEN];

static void dir_create(void)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
    test_dir_make(dir, "datagen");
}

static void dir_remove(void)
{
    test_dir_remove(dir);
}

static const char *in_dir(const char *name)
{
    static char path[4][512];
    static int next;
    ck_assert_msg(dir[0], "no temporary directory");
    next = (next + 1) % 4;
    snprintf(path[next], sizeof path[next], "%s/%s", dir, name);
    return path[next];
}

static void spill(const char *path, const unsigned char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert(f && fwrite(bytes, 1, len, f) == len && !fclose(f));
}

/* A small run of `games` games at `nodes` nodes a search. */
static void run_nodes(const char *variant, const char *path, int games, int shard, int nshards, int concurrency,
                      uint64_t seed, uint64_t nodes)
{
    struct datagen_options o = { .v = test_variant(variant), .games = (uint64_t)games, .nodes = nodes, .seed = seed,
                                 .shard = shard, .nshards = nshards, .concurrency = concurrency, .random_plies = 4,
                                 .hash_mb = 1, .adj = datagen_adjudication };
    struct datagen_stats st;
    char err[1024];
    ck_assert_msg(datagen_run(path, &o, &st, err, sizeof err), "%s", err);
    uint64_t begin, end;
    shard_range((uint64_t)games, shard, nshards, &begin, &end);
    ck_assert_uint_eq(st.games, end - begin);
    ck_assert(st.positions <= st.plies);
}

static void run(const char *variant, const char *path, int games, int shard, int nshards, int concurrency,
                uint64_t seed)
{
    run_nodes(variant, path, games, shard, nshards, concurrency, seed, 300);
}

/* Every record of the file, checked by the reader; returns how many (at most max). */
static size_t read_all(const char *path, struct datagen_record *out, size_t max)
{
    struct datagen_reader rd;
    char err[1024];
    size_t n = 0;
    int got;
    ck_assert_msg(datagen_open(&rd, path, err, sizeof err), "%s", err);
    while ((got = datagen_next(&rd, &out[n < max ? n : max - 1], err, sizeof err)) > 0)
        n++;
    ck_assert_msg(got == 0, "%s", err);
    datagen_close(&rd);
    return n;
}

/* A record of the game's position with made-up search and result fields. */
static struct datagen_record record_of(struct game *g, uint64_t *random)
{
    move_t list[MAX_MOVES];
    struct datagen_record r = { .v = g->v, .score = (int)(random_next(random) % 64001) - 32000,
                                .ply = (int)(random_next(random) % 400), .den = g->v->nplayers };
    g->ops->position_get(g->pos, &r.s);
    int n = game_legal_moves(g, list);
    r.move = n ? list[random_next(random) % (uint64_t)n] : MOVE_NONE;
    for (int p = 0; p < g->v->nplayers; p++) {
        r.points[p] = 1;
        r.place[p] = 1;
    }
    r.wdl = datagen_wdl(r.place, g->v->nplayers, r.s.side);
    return r;
}

static void assert_same_record(const struct datagen_record *a, const struct datagen_record *b)
{
    ck_assert_ptr_eq(a->v, b->v);
    ck_assert(!memcmp(a->s.piece, b->s.piece, sizeof a->s.piece));
    ck_assert_int_eq(a->s.side, b->s.side);
    ck_assert_uint_eq(a->s.castling, b->s.castling);
    ck_assert_int_eq(a->s.ep, b->s.ep);
    ck_assert_int_eq(a->s.halfmove, b->s.halfmove);
    ck_assert_int_eq(a->s.fullmove, b->s.fullmove);
    ck_assert_uint_eq(a->move, b->move);
    ck_assert_int_eq(a->score, b->score);
    ck_assert_int_eq(a->ply, b->ply);
    ck_assert_int_eq(a->wdl, b->wdl);
    ck_assert_int_eq(a->den, b->den);
    ck_assert(!memcmp(a->points, b->points, sizeof a->points) && !memcmp(a->place, b->place, sizeof a->place));
}

/* Every built-in variant: positions from random games written and read back field by field, and
 * re-encoded to the same bytes; castling rights and en-passant cells occur on the way. */
START_TEST(test_round_trip)
{
    uint64_t random = 11;
    int castling = 0, ep = 0, records = 0;
    for (int i = 0; i < registry_count(); i++) {
        struct game g;
        move_t list[MAX_MOVES];
        /* A record holds three armies' results: four-player variants are refused (test_command_line). */
        if (registry_get(i)->nplayers > DATAGEN_MAX_ARMIES)
            continue;
        test_game(&g, registry_get(i)->name, NULL, false);
        for (int ply = 0; ply < 12; ply++) {
            struct datagen_record r = record_of(&g, &random), back;
            unsigned char bytes[DATAGEN_RECORD_SIZE], again[DATAGEN_RECORD_SIZE];
            char err[512];
            ck_assert(datagen_encode(&r, bytes));
            ck_assert_msg(datagen_decode(bytes, &back, err, sizeof err), "%s: %s", g.v->name, err);
            assert_same_record(&r, &back);
            ck_assert(datagen_encode(&back, again) && !memcmp(bytes, again, sizeof bytes));
            castling += r.s.castling != 0;
            ep += r.s.ep != CELL_NONE;
            records++;
            int n = game_legal_moves(&g, list);
            if (!n)
                break;
            game_play(&g, list[random_next(&random) % (uint64_t)n], NULL);
        }
        game_free(&g);
    }
    ck_assert(castling > 0 && ep > 0 && records > 100);
}
END_TEST

/* The glinski start as a record, bytes ready to damage. */
static void valid_record(unsigned char bytes[DATAGEN_RECORD_SIZE])
{
    struct game g;
    uint64_t random = 3;
    test_game(&g, "glinski", NULL, false);
    struct datagen_record r = record_of(&g, &random);
    r.den = 2;
    ck_assert(datagen_encode(&r, bytes));
    game_free(&g);
}

/* Every kind of bad field is refused with one line naming it; so is every record cut short. */
START_TEST(test_damaged_records)
{
    static const struct {
        int at, value;
        const char *says;
    } damage[] = {
        { 0, 0x5a, "fingerprint" },         /* the variant */
        { 9, 0x7e, "score" },               /* 32256 or more: beyond a mate */
        { 16, 2, "side to move" },
        { 17, 91, "en-passant" },
        { 15, 0x80, "castling" },
        { 19, 3, "result" },
        { 20, 0, "points" },                /* den 0 */
        { 22, 2, "points" },                /* White's points beyond the total */
        { 28, 0, "army 0" },                /* no placement */
        { 30, 1, "army 2" },                /* a third army in a two-player game */
        { 31, 97, "pieces" },
        { 31, 35, "occupied cells" },
        { 32, 91, "move" },                 /* from off the board */
        { 34, 30, "move" },                 /* promotion to no type */
        { 36 + 11, 0x80, "off the board" }, /* cell 95 */
        { 64, 0x7f, "piece code" },
        { 159, 5, "after the last piece" },
    };
    unsigned char good[DATAGEN_RECORD_SIZE], bad[DATAGEN_RECORD_SIZE];
    struct datagen_record r;
    char err[512];
    valid_record(good);
    ck_assert_msg(datagen_decode(good, &r, err, sizeof err), "%s", err);
    for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
        memcpy(bad, good, sizeof bad);
        bad[damage[i].at] = (unsigned char)damage[i].value;
        err[0] = 0;
        ck_assert_msg(!datagen_decode(bad, &r, err, sizeof err), "byte %d = %d accepted", damage[i].at,
                      damage[i].value);
        ck_assert_msg(strstr(err, damage[i].says) && !strchr(err, '\n'), "byte %d: '%s'", damage[i].at, err);
    }
    /* The result the mover is said to have must be the placements' */
    memcpy(bad, good, sizeof bad);
    bad[29] = 2;
    ck_assert(!datagen_decode(bad, &r, err, sizeof err));
    /* Two good records, then every length short of the second: one record, then one error line. */
    unsigned char two[2 * DATAGEN_RECORD_SIZE];
    memcpy(two, good, sizeof good);
    memcpy(two + DATAGEN_RECORD_SIZE, good, sizeof good);
    const char *path = in_dir("cut.bin");
    for (size_t len = 0; len <= sizeof two; len++) {
        struct datagen_reader rd;
        spill(path, two, len);
        ck_assert(datagen_open(&rd, path, err, sizeof err));
        int got, n = 0;
        while ((got = datagen_next(&rd, &r, err, sizeof err)) > 0)
            n++;
        datagen_close(&rd);
        ck_assert_int_eq(n, (int)(len / DATAGEN_RECORD_SIZE));
        ck_assert_int_eq(got, len % DATAGEN_RECORD_SIZE ? -1 : 0);
        if (got < 0)
            ck_assert_msg(strstr(err, "cut short") && strstr(err, path) && !strchr(err, '\n'), "%s", err);
    }
    struct datagen_reader rd;
    ck_assert(!datagen_open(&rd, in_dir("missing.bin"), err, sizeof err) && strstr(err, "cannot read"));
}
END_TEST

/* Two runs with the same options write the same bytes, whatever the concurrency; another seed not. */
START_TEST(test_same_bytes)
{
    size_t a_len, b_len, c_len;
    run("glinski", in_dir("a.bin"), 4, 1, 1, 1, 7);
    run("glinski", in_dir("b.bin"), 4, 1, 1, 2, 7);
    run("glinski", in_dir("c.bin"), 4, 1, 1, 2, 8);
    unsigned char *a = test_file_read(in_dir("a.bin"), &a_len), *b = test_file_read(in_dir("b.bin"), &b_len);
    unsigned char *c = test_file_read(in_dir("c.bin"), &c_len);
    ck_assert(a_len > 10 * DATAGEN_RECORD_SIZE && a_len % DATAGEN_RECORD_SIZE == 0);
    ck_assert(a_len == b_len && !memcmp(a, b, a_len));
    ck_assert(a_len != c_len || memcmp(a, c, a_len));
    free(a);
    free(b);
    free(c);
}
END_TEST

/* Shards 1/2 and 2/2, and 1/3 to 3/3, concatenated in order are the unsharded file. */
START_TEST(test_shards_concatenate)
{
    size_t whole_len, len[3];
    run("glinski", in_dir("whole.bin"), 4, 1, 1, 2, 7);
    unsigned char *whole = test_file_read(in_dir("whole.bin"), &whole_len);
    for (int n = 2; n <= 3; n++) {
        unsigned char *part[3];
        size_t at = 0;
        for (int k = 1; k <= n; k++) {
            char name[32];
            snprintf(name, sizeof name, "shard%d-%d.bin", k, n);
            run("glinski", in_dir(name), 4, k, n, 1, 7);
            part[k - 1] = test_file_read(in_dir(name), &len[k - 1]);
            ck_assert(at + len[k - 1] <= whole_len && !memcmp(whole + at, part[k - 1], len[k - 1]));
            at += len[k - 1];
            free(part[k - 1]);
        }
        ck_assert_uint_eq(at, whole_len);
    }
    free(whole);
}
END_TEST

enum { MAX_READ = 20000 };

/* Each record's position is not in check and its move is legal, neither a capture nor a promotion;
 * the records of a game share its result, and the mover's result follows from the placements. */
static size_t assert_quiet(const char *path, int nplayers)
{
    static struct datagen_record r[MAX_READ];
    size_t n = read_all(path, r, MAX_READ);
    unsigned sides = 0;
    ck_assert(n > 0 && n < MAX_READ);
    for (size_t i = 0; i < n; i++) {
        struct game g;
        char fen[1024], err[512];
        move_t list[MAX_MOVES];
        setup_to_fen(&r[i].s, r[i].v, fen, sizeof fen);
        test_game(&g, r[i].v->name, NULL, false);
        ck_assert_msg(game_set_position(&g, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
        ck_assert_msg(!g.ops->position_in_check(g.pos), "in check: %s", fen);
        int legal = game_legal_moves(&g, list), k = 0;
        while (k < legal && list[k] != r[i].move)
            k++;
        ck_assert_msg(k < legal, "not a legal move in %s", fen);
        int target = r[i].s.piece[move_to(r[i].move)];
        ck_assert_msg(!(r[i].move & MOVE_EP) && (!target || piece_colour(target) == r[i].s.side)
                          && move_promo(r[i].move) < 0, "a capture or promotion in %s", fen);
        ck_assert_int_eq(r[i].wdl, datagen_wdl(r[i].place, nplayers, r[i].s.side));
        ck_assert_int_eq(r[i].v->nplayers, nplayers);
        sides |= 1u << r[i].s.side;
        game_free(&g);
    }
    ck_assert_uint_eq(sides, (1u << nplayers) - 1);
    return n;
}

START_TEST(test_quiet_positions_only)
{
    run("glinski", in_dir("quiet.bin"), 4, 1, 1, 2, 7);
    assert_quiet(in_dir("quiet.bin"), 2);
}
END_TEST

/* Wellisch: three armies to move, placements from 1 to 3, points shared as game_status scores them. */
START_TEST(test_three_players)
{
    static struct datagen_record r[MAX_READ];
    run("wellisch", in_dir("wellisch.bin"), 3, 1, 1, 2, 7);
    size_t n = assert_quiet(in_dir("wellisch.bin"), 3);
    ck_assert_uint_eq(read_all(in_dir("wellisch.bin"), r, MAX_READ), n);
    for (size_t i = 0; i < n; i++) {
        int sum = 0;
        for (int p = 0; p < 3; p++) {
            ck_assert(r[i].place[p] >= 1 && r[i].place[p] <= 3);
            sum += r[i].points[p];
        }
        ck_assert_int_eq(sum, r[i].den);
    }
}
END_TEST

/* The score of one search of the record's position from a cleared table, as datagen's first search of
 * a game is, by a game whose evaluation has the weights p (NULL: the variant's built-in ones). */
static int search_again(struct search_pool *pool, const struct datagen_record *r, const struct eval_params *p,
                        uint64_t nodes)
{
    struct game g;
    struct lines lines;
    char fen[1024], err[512];
    setup_to_fen(&r->s, r->v, fen, sizeof fen);
    test_game(&g, r->v->name, fen, false);
    ck_assert_msg(!p || game_load_weights(&g, p, err, sizeof err), "%s", err);
    ck_assert(lines_search(pool, &g, 1, 0, nodes, &lines) && lines.n == 1);
    game_free(&g);
    return lines.score[0];
}

/* Datagen's searches score with the variant's shipped weights (eval/weights/full-house.txt on top of
 * glinski.txt), the evaluation the engine plays with: each game's first search, from a cleared
 * table, is searched again from its record's position and gives the same score. The family default's
 * weights alone (the untuned engine's) give other scores, so the comparison can tell them apart. */
START_TEST(test_shipped_weights)
{
    enum { GAMES = 6, NODES = 1000, RANDOM_PLIES = 4 };
    static struct datagen_record r[MAX_READ];
    const struct variant *v = test_variant("full-house");
    struct eval_params untuned;
    int first = 0, other = 0;
    char err[512];
    ck_assert_msg(weights_default(v, &untuned, err, sizeof err), "%s", err);
    run_nodes("full-house", in_dir("tuned.bin"), GAMES, 1, 1, 1, 7, NODES);
    size_t n = read_all(in_dir("tuned.bin"), r, MAX_READ);
    struct search_pool *pool = pool_new();
    ck_assert(pool && pool_configure(pool, 1, 1));
    for (size_t i = 0; i < n; i++) {
        if (r[i].ply != RANDOM_PLIES)
            continue;
        first++;
        ck_assert_int_eq(search_again(pool, &r[i], NULL, NODES), r[i].score);
        other += search_again(pool, &r[i], &untuned, NODES) != r[i].score;
    }
    pool_free(pool);
    ck_assert_int_ge(first, GAMES / 2);
    ck_assert_int_gt(other, 0);
}
END_TEST

/* bench/cluster/parallel-datagen.sh: three shards by GNU Parallel, two at a time; the files shards.txt
 * lists, in its order, are the unsharded file byte for byte. Run again after a shard's file is lost,
 * it plays that shard alone (no other shard writes its log again) and the files are the same again;
 * with other arguments it refuses the directory. */
START_TEST(test_parallel_shards)
{
    enum { MAX_FILE = 1 << 20 };
    static unsigned char joined[MAX_FILE];
    char cmd[2048], list[1024], *save = NULL;
    const char *out = in_dir("cluster"), *whole_path = in_dir("whole-run.bin");
    size_t whole_len;
    run_nodes("glinski", whole_path, 3, 1, 1, 1, 7, 300);
    unsigned char *whole = test_file_read(whole_path, &whole_len);
    for (int pass = 0; pass < 3; pass++) {
        snprintf(cmd, sizeof cmd, "SHARDS=3 JOBS=2 OUT='%s' bench/cluster/parallel-datagen.sh '%s' --variant glinski "
                 "--games 3 --nodes 300 --seed %d >'%s.out' 2>&1", out, pipe_engine_path(), pass < 2 ? 7 : 8, out);
        int status = system(cmd);
        if (pass == 2) {
            ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2, "%s: status %d", cmd, status);
            break;
        }
        ck_assert_msg(status == 0, "%s failed", cmd);
        snprintf(list, sizeof list, "%s/shards.txt", out);
        size_t list_len, at = 0, len;
        char *names = (char *)test_file_read(list, &list_len);
        int shards = 0;
        for (char *name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save), shards++) {
            unsigned char *part = test_file_read(name, &len);
            ck_assert(at + len <= MAX_FILE);
            memcpy(joined + at, part, len);
            at += len;
            free(part);
        }
        free(names);
        ck_assert_int_eq(shards, 3);
        ck_assert(at == whole_len && !memcmp(joined, whole, whole_len));
        /* A shard played again writes its log: after the first pass, only shard 2's is written. */
        snprintf(list, sizeof list, "%s/shard-1.log", out);
        ck_assert_int_eq(access(list, F_OK) == 0, pass == 0);
        ck_assert(pass || !unlink(list));
        snprintf(list, sizeof list, "%s/shard-2.bin", out);
        ck_assert(!unlink(list));
    }
    free(whole);
}
END_TEST

/* The executable: a run, --dump with a line per record, and the errors. */
START_TEST(test_command_line)
{
    struct proc p;
    const char *out = in_dir("cli.bin");
    pipe_start(&p, (const char *const[]){ "datagen", "--variant", "glinski", "--out", out, "--games", "2", "--nodes",
                                          "300", "--shard", "2/2", NULL });
    struct proc_exit x = pipe_wait(&p, (int)(test_timeout(20) * 1000));
    ck_assert(x.exited && x.code == 0);
    proc_end(&p, 0, NULL, 0);
    size_t len, lines = 0;
    free(test_file_read(out, &len));
    pipe_start(&p, (const char *const[]){ "datagen", "--dump", out, NULL });
    for (const char *line; (line = pipe_read_line(&p, (int)(test_timeout(5) * 1000)));) {
        ck_assert_msg(strstr(line, "; variant glinski; move ") && strstr(line, "; place w "), "%s", line);
        lines++;
    }
    x = pipe_wait(&p, (int)(test_timeout(5) * 1000));
    ck_assert(x.exited && x.code == 0);
    proc_end(&p, 0, NULL, 0);
    ck_assert(lines > 0 && lines * DATAGEN_RECORD_SIZE == len);
    /* A bad file, a variant of four armies, and bad options: those print one line before the usage. */
    static const struct {
        const char *args[10], *line;
    } bad[] = {
        { { "datagen", "--dump", "/nonexistent/x.bin", NULL }, NULL },
        { { "datagen", "--variant", "glinski", "--out", "/nonexistent/x.bin", "--games", "1", NULL }, NULL },
        { { "datagen", "--variant", "nonesuch", "--out", "x.bin", NULL }, NULL },
        { { "datagen", "--variant", "nd-wellisch-4p", "--out", "x.bin", "--games", "1", NULL }, NULL },
        { { "datagen", "--variant", "glinski", "--out", "x.bin", "--shard", "3/2", NULL },
          "--shard: K/N with 1 <= K <= N <= 1000000 is expected, not '3/2'" },
        { { "datagen", "--variant", "glinski", "--out", "x.bin", "--nodes", "5", NULL },
          "--nodes: a number from 100 to 1000000000 is expected, not '5'" },
        { { "datagen", "--variant", "glinski", "--out", "x.bin", "--games", NULL }, "--games needs a value" },
        { { "datagen", "--variant", "glinski", NULL }, "--variant and --out are needed" },
        { { "datagen", "--frobnicate", NULL }, "unknown option '--frobnicate'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char out[4096], err[1024], want[256];
        int lines;
        int code = pipe_run(bad[i].args, out, sizeof out, err, sizeof err, &lines);
        ck_assert_msg(code == (bad[i].line ? 2 : 1), "case %zu: exit %d", i, code);
        snprintf(want, sizeof want, "%s\n", bad[i].line ? bad[i].line : "");
        ck_assert_msg(!bad[i].line || (!strcmp(err, want) && lines > 1), "case %zu: %s", i, err);
    }
    ck_assert(access("x.bin", F_OK));
}
END_TEST

Suite *suite_datagen(void)
{
    Suite *s = suite_create("datagen");
    TCase *tc = tcase_create("format");
    tcase_add_unchecked_fixture(tc, dir_create, dir_remove);
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_damaged_records);
    suite_add_tcase(s, tc);
    tc = tcase_create("games");
    tcase_add_unchecked_fixture(tc, dir_create, dir_remove);
    tcase_set_timeout(tc, test_timeout(30));
    tcase_add_test(tc, test_same_bytes);
    tcase_add_test(tc, test_shards_concatenate);
    tcase_add_test(tc, test_quiet_positions_only);
    tcase_add_test(tc, test_three_players);
    tcase_add_test(tc, test_shipped_weights);
    tcase_add_test(tc, test_command_line);
    bool parallel = !system("command -v parallel >/dev/null 2>&1");
    test_add_unless(tc, test_parallel_shards, parallel ? NULL : "GNU parallel is not installed (make deps-test)");
    suite_add_tcase(s, tc);
    return s;
}
