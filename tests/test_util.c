/* Helpers shared by the test suites: the registry, test games, widths, scaled timeouts, directories. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../rules/registry.h"
#include "../util/file.h"
#include "../util/random.h"
#include "tests.h"

/* The user variant files of docs/examples, and the three-player and castling games of the tests, are
 * tested like the built-in games; each file is loaded once, which its first variant shows. */
static const struct {
    const char *path, *first_variant;
} example_files[] = {
    { "docs/examples/hex5-marshal.ini", "hex5-marshal" },
    { "docs/examples/cannon-hex.ini", "cannon-hex" },
    { "docs/examples/substitutes.ini", "substitute-racers" },
    { "tests/fixtures/three-player.ini", "tri-ep-ref" },
    { "tests/fixtures/castling.ini", "castle-nd" },
};

bool test_registry_init(char *err, size_t errlen)
{
    if (!registry_init(err, errlen))
        return false;
    for (size_t i = 0; i < sizeof example_files / sizeof *example_files; i++)
        if (!registry_find(example_files[i].first_variant)
            && registry_add_file(example_files[i].path, false, game_validate_variant, err, errlen) < 0)
            return false;
    return true;
}

const struct variant *test_variant(const char *name)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
    const struct variant *v = registry_find(name);
    ck_assert_msg(v != NULL, "no variant %s", name);
    return v;
}

void test_game(struct game *g, const char *variant, const char *fen, bool wide)
{
    char err[512];
    memset(g, 0, sizeof *g);
    ck_assert_msg(game_init(g, test_variant(variant), wide, err, sizeof err), "%s", err);
    if (fen)
        ck_assert_msg(game_set_position(g, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
}

bool test_wide_only(const struct variant *v)
{
    return instance_for(v, false)->bits > 128;
}

static int skipped;

void test_add_unless(TCase *tc, const TTest *test, const char *why_not)
{
    if (!why_not) {
        tcase_add_test(tc, test);
        return;
    }
    printf("skipped: %s: %s\n", test->name, why_not);
    /* Check forks a process per test: what is still buffered would be printed again by each. */
    fflush(stdout);
    skipped++;
}

int test_skipped(void)
{
    return skipped;
}

double test_timeout(double seconds)
{
    const char *scale = getenv("TEST_TIME_SCALE");
    return seconds * (scale ? atof(scale) : 1.0);
}

int test_sample(void)
{
    const char *k = getenv("TEST_SAMPLE");
    return k && atoi(k) > 1 ? atoi(k) : 1;
}

unsigned char *test_file_read(const char *path, size_t *len)
{
    char err[512];
    char *bytes = file_read(path, SIZE_MAX, len, err, sizeof err);
    ck_assert_msg(bytes, "%s", err);
    return (unsigned char *)bytes;
}

void test_dir_make(char dir[TEST_DIR_LEN], const char *name)
{
    snprintf(dir, TEST_DIR_LEN, "/tmp/sennight-%s-XXXXXX", name);
    if (!mkdtemp(dir))
        dir[0] = 0;
}

void test_dir_remove(char dir[TEST_DIR_LEN])
{
    DIR *d = dir[0] ? opendir(dir) : NULL;
    char path[512];
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    if (dir[0])
        rmdir(dir);
}

static int move_order(const void *a, const void *b)
{
    move_t x = *(const move_t *)a, y = *(const move_t *)b;
    return (x > y) - (x < y);
}

/* The legal moves of a search list, sorted: those not flagged MOVE_UNTESTED and the flagged ones
 * movegen_is_safe accepts. */
static int tested_moves(const struct game *g, move_t *list, int n, int seen[2])
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        move_t m = list[i] & ~MOVE_UNTESTED;
        if (list[i] & MOVE_UNTESTED) {
            seen[0]++;
            if (!g->ops->movegen_is_safe(g->pos, m)) {
                seen[1]++;
                continue;
            }
        }
        list[k++] = m;
    }
    qsort(list, (size_t)k, sizeof *list, move_order);
    return k;
}

/* part (n moves) is the captures and promotions (noisy) or the other moves of the whole search list,
 * flags and order kept. */
static void check_list_part(const struct game *g, const move_t *part, int n, bool noisy, const char *what)
{
    move_t all[MAX_MOVES];
    struct setup s;
    int nall = g->ops->movegen_pseudo(g->pos, all), k = 0;
    g->ops->position_get(g->pos, &s);
    for (int i = 0; i < nall; i++) {
        move_t m = all[i];
        int victim = s.piece[move_to(m)];
        bool loud = (m & MOVE_EP) || move_promo(m) >= 0
                    || (victim && piece_colour(victim) != s.side && !(m & MOVE_CASTLE));
        if (loud != noisy)
            continue;
        ck_assert_msg(k < n && part[k] == m, "%s (%d-bit): %s %d of the whole list", g->v->name, g->ops->bits, what,
                      k);
        k++;
    }
    ck_assert_int_eq(k, n);
}

void test_search_lists(const struct game *g, int seen[2])
{
    move_t legal[MAX_MOVES], got[MAX_MOVES];
    bool noisy = !g->ops->position_in_check(g->pos);
    for (int pass = 0; pass < 1 + noisy; pass++) {
        int want = pass ? g->ops->movegen_noisy(g->pos, legal) : g->ops->movegen_legal(g->pos, legal);
        int k = pass ? g->ops->movegen_pseudo_noisy(g->pos, got) : g->ops->movegen_pseudo(g->pos, got);
        k = tested_moves(g, got, k, seen);
        qsort(legal, (size_t)want, sizeof *legal, move_order);
        if (k == want && !memcmp(got, legal, (size_t)k * sizeof *got))
            continue;
        struct setup s;
        char fen[1024];
        g->ops->position_get(g->pos, &s);
        setup_to_fen(&s, g->v, fen, sizeof fen);
        ck_abort_msg("%s (%d-bit) %s: %d moves tested late%s, %d legal", g->v->name, g->ops->bits, fen, k,
                     pass ? " (noisy)" : "", want);
    }
    /* Out of check the captures-only list is the whole list's captures and promotions, flags and order
     * kept: the three-player search takes a node's first ordered move from it (search_multi.c). The
     * quiet list is the whole list's other moves, so kept: the main search's picker generates it after
     * the captures-only list (search.c). */
    move_t part[MAX_MOVES];
    if (noisy) {
        int n = g->ops->movegen_pseudo_noisy(g->pos, part);
        check_list_part(g, part, n, true, "capture or promotion");
    }
    int n = g->ops->movegen_pseudo_quiet(g->pos, part);
    check_list_part(g, part, n, false, "quiet move");
}

void test_walk_games(uint64_t seed, int plies, void (*visit)(struct game *g, const move_t *list, int n, void *ctx),
                       void *ctx)
{
    test_variant("glinski");   /* the registry, with the test variants */
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        for (int wide = test_wide_only(v); wide < 2; wide++) {
            struct game g;
            test_game(&g, v->name, NULL, wide);
            for (int ply = 0; ply < plies; ply++) {
                move_t list[MAX_MOVES];
                int n = game_legal_moves(&g, list);
                if (!n || game_status(&g).outcome != GAME_ONGOING)
                    break;
                /* Each variant's sample starts at another ply, so the sampled plies cover the game. */
                if ((ply + i) % test_sample() == 0)
                    visit(&g, list, n, ctx);
                game_play(&g, list[random_next(&seed) % (uint64_t)n], NULL);
            }
            game_free(&g);
        }
    }
}
