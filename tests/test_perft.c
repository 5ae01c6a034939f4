/* Perft suites (tests/perft/<variant>.epd): the fast generator at both cell-set widths. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../util/random.h"
#include "perft_epd.h"
#include "tests.h"

/* Depths whose count exceeds this are left to `make perft-deep` (PERFT_MAX_NODES=0: no limit). */
static uint64_t node_limit(uint64_t fallback)
{
    const char *s = getenv("PERFT_MAX_NODES");
    uint64_t n = s ? strtoull(s, NULL, 10) : fallback;
    return n ? n : UINT64_MAX;
}

static const char *perft_dir(void)
{
    const char *d = getenv("PERFT_DIR");
    return d ? d : "tests/perft";
}

/* Checks one EPD line; returns the number of depths checked. */
static int check_line(const char *variant, const char *line, bool wide, uint64_t limit)
{
    struct perft_epd e;
    char err[256];
    ck_assert_msg(perft_epd_parse(line, &e, err, sizeof err), "%s: %s", variant, err);
    struct game g;
    test_game(&g, variant, e.fen, wide);
    int checked = 0;
    atomic_bool stop = false;
    for (int i = 0; i < e.n && e.count[i] <= limit; i++) {
        uint64_t got = g.ops->perft(g.pos, e.depth[i], &stop);
        ck_assert_msg(got == e.count[i], "%s %d-bit, %s depth %d: %" PRIu64 ", expected %" PRIu64, variant,
                      g.ops->bits, e.fen, e.depth[i], got, e.count[i]);
        checked++;
    }
    game_free(&g);
    return checked;
}

static int run_suite(const char *path, const char *variant, bool wide, uint64_t limit)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot open %s", path);
    char line[4096];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] && line[0] != '#')
            checked += check_line(variant, line, wide, limit);
    }
    fclose(f);
    return checked;
}

static void run_all(bool wide, uint64_t limit)
{
    DIR *dir = opendir(perft_dir());
    ck_assert_msg(dir, "no perft directory %s", perft_dir());
    int suites = 0, checked = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".epd"))
            continue;
        char path[1024], variant[NAME_LEN];
        snprintf(path, sizeof path, "%s/%s", perft_dir(), e->d_name);
        snprintf(variant, sizeof variant, "%.*s", (int)(n - 4), e->d_name);
        /* A board only the wide instance holds had it in the narrow run already, with the higher limit. */
        if (wide && test_wide_only(test_variant(variant)))
            continue;
        checked += run_suite(path, variant, wide, limit);
        suites++;
    }
    closedir(dir);
    ck_assert_int_ge(suites, 4);
    ck_assert_int_ge(checked, 40);
}

START_TEST(test_perft_suites)
{
    run_all(false, node_limit(2000000));
}
END_TEST

START_TEST(test_perft_suites_wide)
{
    run_all(true, node_limit(2000000) / 10);
}
END_TEST

/* The published numbers (docs/variants.md) must stay in the suites, whatever else changes. */
START_TEST(test_published_numbers)
{
    struct game g;
    atomic_bool stop = false;
    const uint64_t glinski[] = { 51, 2586, 137858 }, mccooey[] = { 31, 947, 33307 };
    test_game(&g, "glinski", NULL, false);
    for (int d = 1; d <= 3; d++)
        ck_assert_uint_eq(g.ops->perft(g.pos, d, &stop), glinski[d - 1]);
    game_free(&g);
    test_game(&g, "mccooey", NULL, false);
    for (int d = 1; d <= 3; d++)
        ck_assert_uint_eq(g.ops->perft(g.pos, d, &stop), mccooey[d - 1]);
    game_free(&g);
}
END_TEST

START_TEST(test_perft_stops)
{
    struct game g;
    atomic_bool stop = true;
    test_game(&g, "glinski", NULL, false);
    ck_assert_uint_lt(g.ops->perft(g.pos, 6, &stop), 1000000);
    game_free(&g);
}
END_TEST

/* The suites' line format, read strictly (tests/perft_epd.c, also fuzzed: docs/fuzzing.md). */
START_TEST(test_epd_lines)
{
    struct perft_epd e;
    char err[256];
    ck_assert(perft_epd_parse("6/7/8 w - - 0 1 ;D1 51 ;D2\t2586 ", &e, err, sizeof err));
    ck_assert_str_eq(e.fen, "6/7/8 w - - 0 1 ");
    ck_assert(e.n == 2 && e.depth[0] == 1 && e.count[0] == 51 && e.depth[1] == 2 && e.count[1] == 2586);
    ck_assert(perft_epd_parse("x ;D99 18446744073709551615", &e, err, sizeof err) && e.count[0] == UINT64_MAX);
    const char *bad[] = { "6/7/8 w", "x ;", "x ;D1", "x ;D1 5 ;", "x ;D0 5", "x ;D100 5", "x ;d1 5", "x ;D1 5x",
                          "x ;D1 -5", "x ;D 5", "x ;D1 18446744073709551616", "x ;D1 1 1" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(!perft_epd_parse(bad[i], &e, err, sizeof err) && err[0], "accepted '%s'", bad[i]);
    char many[512] = "x ";
    for (int d = 1; d <= PERFT_EPD_DEPTHS + 1; d++)
        snprintf(many + strlen(many), sizeof many - strlen(many), ";D%d %d ", d, d);
    ck_assert(!perft_epd_parse(many, &e, err, sizeof err) && strstr(err, "more than"));
}
END_TEST

/* The quiescence search's generator: out of check exactly the legal list's captures, promotions and en
 * passant, in its order, along random games in every variant and each width that holds its board. It
 * skips pieces whose reach on the empty board meets no enemy: a reach short of a target loses moves. */
START_TEST(test_noisy_moves)
{
    test_variant("glinski");   /* the registry, with the test variants */
    uint64_t random = 23;
    int noisy_seen = 0;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        for (int wide = test_wide_only(v); wide < 2; wide++) {
            struct game g;
            test_game(&g, v->name, NULL, wide);
            for (int ply = 0; ply < 60; ply++) {
                move_t list[MAX_MOVES], noisy[MAX_MOVES], want[MAX_MOVES];
                struct setup s;
                int n = game_legal_moves(&g, list), k = 0;
                if (!n || game_status(&g).outcome != GAME_ONGOING)
                    break;
                g.ops->position_get(g.pos, &s);
                n = g.ops->movegen_legal(g.pos, list);
                for (int j = 0; j < n; j++) {
                    int victim = s.piece[move_to(list[j])];
                    if (move_promo(list[j]) >= 0 || (list[j] & MOVE_EP)
                        || (victim && piece_colour(victim) != s.side && !(list[j] & MOVE_CASTLE)))
                        want[k++] = list[j];
                }
                /* The quiescence search generates noisy moves only out of check. */
                if (!g.ops->position_in_check(g.pos)) {
                    int got = g.ops->movegen_noisy(g.pos, noisy);
                    ck_assert_msg(got == k && !memcmp(noisy, want, (size_t)k * sizeof *want),
                                  "%s ply %d: %d noisy moves, %d legal captures and promotions", v->name, ply, got, k);
                    noisy_seen += k;
                }
                game_play(&g, list[random_next(&random) % (uint64_t)n], NULL);
            }
            game_free(&g);
        }
    }
    ck_assert_int_gt(noisy_seen, 1000);
}
END_TEST

/* The search's lists (movegen_pseudo, movegen_pseudo_noisy) tested late: what movegen_is_safe keeps is
 * the legal list, and out of check the legal noisy list, as sets (and the noisy list the whole list's
 * captures and promotions in order), along random games in every variant and each width that holds
 * its board; flagged moves must occur, and be refused, often. */
static void visit_search_lists(struct game *g, const move_t *list, int n, void *seen)
{
    (void)list, (void)n;
    test_search_lists(g, seen);
}

START_TEST(test_pseudo_moves)
{
    int seen[2] = { 0, 0 };
    test_walk_games(41, 80, visit_search_lists, seen);
    ck_assert_int_gt(seen[0], 20000 / test_sample());
    ck_assert_int_gt(seen[1], 500 / test_sample());
}
END_TEST

/* The check tests against every attacker gathered (position_attackers): position_attacked_by, stopping
 * at the first attacker, on every cell for every player, and the search's tests after each legal move
 * (position_in_check_after_move; with three and four players, the royals the side to move attacks)
 * and before it (position_move_checks), along random games in every variant and each width that
 * holds its board. */
struct attack_counts {
    long seen[2], checks, told[2], told_checks;
};

/* Whether each move checks, as the search's tests before and after it tell and as the position says. */
static void check_moves_told(struct game *g, const move_t *list, int n, struct attack_counts *counts)
{
    const struct variant *v = g->v;
    for (int j = 0; j < n; j++) {
        g->ops->position_make(g->pos, list[j]);
        bool check = g->ops->position_in_check(g->pos);
        ck_assert_msg(g->ops->position_in_check_after_move(g->pos) == check,
                      "%s %d-bit, move %d: in check %d, the test after the move says %d", v->name, g->ops->bits, j,
                      check, !check);
        g->ops->position_unmake(g->pos, list[j]);
        int before = g->ops->position_move_checks(g->pos, list[j]);
        ck_assert_msg(before < 0 || before == check, "%s %d-bit, move %d: in check %d after it, the test before says %d",
                      v->name, g->ops->bits, j, check, before);
        counts->told[before >= 0]++;
        counts->told_checks += before == 1;
        counts->checks += check;
    }
}

static void visit_attacks(struct game *g, const move_t *list, int n, void *ctx)
{
    struct attack_counts *counts = ctx;
    const struct variant *v = g->v;
    for (int p = 0; p < v->nplayers; p++)
        for (int c = 0; c < v->geo.ncells; c++) {
            bool fast = g->ops->position_attacked_by(g->pos, c, p);
            int all = g->ops->position_attackers(g->pos, c, p);
            ck_assert_msg(fast == (all > 0), "%s %d-bit: player %d attacks %s %d times, fast test: %d", v->name,
                          g->ops->bits, p, v->geo.name[c], all, fast);
            counts->seen[fast]++;
        }
    check_moves_told(g, list, n, counts);
    for (int j = 0; j < n; j++) {
        g->ops->position_make(g->pos, list[j]);
        unsigned royals = g->ops->position_royals_attacked(g->pos, true);
        ck_assert_msg(g->ops->position_royals_attacked(g->pos, false) == royals,
                      "%s %d-bit, move %d: the side to move attacks the royals %x, the search's test says otherwise",
                      v->name, g->ops->bits, j, royals);
        g->ops->position_unmake(g->pos, list[j]);
    }
}

START_TEST(test_attacked_by)
{
    struct attack_counts counts = { { 0, 0 }, 0, { 0, 0 }, 0 };
    test_walk_games(57, 40, visit_attacks, &counts);
    long k = test_sample();
    ck_assert(counts.seen[0] > 100000 / k && counts.seen[1] > 100000 / k && counts.checks > 1000 / k);
    ck_assert_msg(counts.told[1] > 100000 / k && counts.told[0] > 10000 / k && counts.told_checks > 2500 / k,
                  "checks told before the move %ld (%ld of them checks), not %ld", counts.told[1], counts.told_checks,
                  counts.told[0]);
}
END_TEST

/* The same tests before and after each move from the perft suites' positions and from every position
 * one move on: these hold the promotions, en-passant captures, castlings, fusions and hoppers that
 * random games rarely reach (a pawn promoting on its own line to the royal was missed once). */
static void suite_checks_told(const char *variant, const char *line, bool wide, struct attack_counts *counts)
{
    struct perft_epd e;
    char err[256];
    ck_assert_msg(perft_epd_parse(line, &e, err, sizeof err), "%s: %s", variant, err);
    struct game g;
    test_game(&g, variant, e.fen, wide);
    move_t list[MAX_MOVES], next[MAX_MOVES];
    int n = g.ops->movegen_legal(g.pos, list);
    check_moves_told(&g, list, n, counts);
    for (int i = 0; i < n; i++) {
        g.ops->position_make(g.pos, list[i]);
        enum turn_end end;
        int removed = g.ops->position_resolve(g.pos, &end);
        if (end == TURN_PLAYS)
            check_moves_told(&g, next, g.ops->movegen_legal(g.pos, next), counts);
        g.ops->position_unresolve(g.pos, removed);
        g.ops->position_unmake(g.pos, list[i]);
    }
    game_free(&g);
}

START_TEST(test_checks_told_in_suites)
{
    struct attack_counts counts = { { 0, 0 }, 0, { 0, 0 }, 0 };
    DIR *dir = opendir(perft_dir());
    ck_assert_msg(dir, "no perft directory %s", perft_dir());
    long lines = 0, k = test_sample();
    for (struct dirent *e; (e = readdir(dir));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".epd"))
            continue;
        char path[1024], variant[NAME_LEN], line[4096];
        snprintf(path, sizeof path, "%s/%s", perft_dir(), e->d_name);
        snprintf(variant, sizeof variant, "%.*s", (int)(n - 4), e->d_name);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f, "cannot open %s", path);
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0] || line[0] == '#' || lines++ % k)
                continue;
            suite_checks_told(variant, line, false, &counts);
            if (!test_wide_only(test_variant(variant)))
                suite_checks_told(variant, line, true, &counts);
        }
        fclose(f);
    }
    closedir(dir);
    ck_assert_msg(counts.told[1] > 100000 / k && counts.told_checks > 1000 / k,
                  "checks told before the move %ld (%ld of them checks)", counts.told[1], counts.told_checks);
}
END_TEST

/* The royals the side to move attacks after a move, as the search finds them (from the moves since
 * each royal's army last moved) and tested whole: long random games of the three- and four-player
 * variants, where discovered attacks and armies leaving (which the search's test must not trust)
 * occur; every legal move of every position met is tried. */
START_TEST(test_royals_attacked)
{
    uint64_t seed = 77;
    long hits = 0, tried = 0;
    test_variant("glinski");
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        if (v->nplayers < 3)
            continue;
        for (int round = 0; round < 4; round++) {
            struct game g;
            test_game(&g, v->name, NULL, true);
            for (int ply = 0; ply < 240; ply++) {
                move_t list[MAX_MOVES];
                int n = game_legal_moves(&g, list);
                if (!n || game_status(&g).outcome != GAME_ONGOING)
                    break;
                for (int j = 0; j < n; j++) {
                    g.ops->position_make(g.pos, list[j]);
                    unsigned royals = g.ops->position_royals_attacked(g.pos, true);
                    ck_assert_msg(g.ops->position_royals_attacked(g.pos, false) == royals,
                                  "%s, ply %d, move %d: the side to move attacks the royals %x, the search's test "
                                  "finds others", v->name, ply, j, royals);
                    hits += royals != 0;
                    tried++;
                    g.ops->position_unmake(g.pos, list[j]);
                }
                game_play(&g, list[random_next(&seed) % (uint64_t)n], NULL);
            }
            game_free(&g);
        }
    }
    ck_assert_msg(hits > 40 && tried > 100000, "%ld of %ld moves attack a royal", hits, tried);
}
END_TEST

/* A candidate for movegen_is_pseudo: a member of the list, one flag of it changed, a move kept from
 * another position of the game, or random cells and flags (from at most 255, beyond small boards). */
static move_t pseudo_candidate(const move_t *list, int n, const move_t *kept, uint64_t *random)
{
    static const move_t flags[] = { MOVE_UNTESTED, MOVE_EP, MOVE_DOUBLE, MOVE_CASTLE, 1u << 16, 1u << 26 };
    uint64_t r = random_next(random);
    move_t m = list[(r >> 8) % (uint64_t)n];
    switch (r % 4) {
    case 0:
        return m;
    case 1:
        return m ^ flags[(r >> 24) % (sizeof flags / sizeof *flags)];
    case 2:
        return kept[(r >> 8) % 64];
    default:
        return move_make((int)((r >> 8) & 0xff), (int)((r >> 16) & 0xff)) | (r & 0x100000000u ? flags[(r >> 40) % 6] : 0);
    }
}

struct member_counts {
    uint64_t random;
    move_t kept[64];
    int ply, members, others;
};

static void visit_members(struct game *g, const move_t *legal, int nlegal, void *ctx)
{
    (void)legal, (void)nlegal;
    struct member_counts *c = ctx;
    const struct variant *v = g->v;
    move_t list[MAX_MOVES];
    for (int noisy = 0; noisy < 1 + !g->ops->position_in_check(g->pos); noisy++) {
        int n = noisy ? g->ops->movegen_pseudo_noisy(g->pos, list) : g->ops->movegen_pseudo(g->pos, list);
        for (int k = 0; n && k < 2 * n + 40; k++) {
            move_t m = pseudo_candidate(list, n, c->kept, &c->random);
            bool member = false;
            for (int j = 0; j < n && !member; j++)
                member = list[j] == m;
            c->members += member;
            c->others += !member;
            char text[16];
            move_to_text(v, m & ~MOVE_UNTESTED, text);
            ck_assert_msg(g->ops->movegen_is_pseudo(g->pos, m, noisy) == member, "%s (%d-bit): %s (flags %#x)%s %s",
                          v->name, g->ops->bits, text, m & 0xff200000u, noisy ? " noisy" : "",
                          member ? "refused" : "accepted");
        }
    }
    int n = g->ops->movegen_pseudo(g->pos, list);
    c->kept[c->ply++ % 64] = list[random_next(&c->random) % (uint64_t)n];
}

/* movegen_is_pseudo, without a list, against the search's lists themselves (both, out of check): true
 * exactly for their members, MOVE_UNTESTED included, along random games in every variant and width
 * (moves kept from earlier positions, of this game or the previous one, among the candidates). */
START_TEST(test_pseudo_members)
{
    struct member_counts c = { .random = 57 };
    test_walk_games(59, 50, visit_members, &c);
    ck_assert_int_gt(c.members, 20000 / test_sample());
    ck_assert_int_gt(c.others, 20000 / test_sample());
}
END_TEST

Suite *suite_perft(void)
{
    Suite *s = suite_create("perft");
    TCase *tc = tcase_create("suites");
    tcase_set_timeout(tc, test_timeout(600));
    tcase_add_test(tc, test_epd_lines);
    tcase_add_test(tc, test_published_numbers);
    tcase_add_test(tc, test_perft_stops);
    tcase_add_test(tc, test_noisy_moves);
    tcase_add_test(tc, test_perft_suites);
    tcase_add_test(tc, test_perft_suites_wide);
    suite_add_tcase(s, tc);
    /* A case of its own, to be run alone (CK_RUN_CASE=search-lists). */
    TCase *lists = tcase_create("search-lists");
    tcase_set_timeout(lists, test_timeout(60));
    tcase_add_test(lists, test_pseudo_moves);
    tcase_add_test(lists, test_pseudo_members);
    suite_add_tcase(s, lists);
    TCase *attacks = tcase_create("attacks");
    tcase_set_timeout(attacks, test_timeout(60));
    tcase_add_test(attacks, test_attacked_by);
    tcase_add_test(attacks, test_checks_told_in_suites);
    tcase_add_test(attacks, test_royals_attacked);
    suite_add_tcase(s, attacks);
    return s;
}
