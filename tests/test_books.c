/* Opening books (books/, docs/books.md): the file format byte by byte, round trips, lookups, every
 * kind of damaged file, legal moves only, the builders from game records and by expansion, merging,
 * the command line, OwnBook through the real executable ($SENNIGHT), and the opening-suite generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "../books/build.h"
#include "../books/book_command.h"
#include "../books/suite.h"
#include "../games/openings.h"
#include "../games/pgn.h"
#include "../rules/registry.h"
#include "engine_pipe.h"
#include "tests.h"

#define PROMOTION "5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1"

/* ------------------------------------------------------------------------------------------- */
/* Files in a directory of their own under /tmp, made and removed by an unchecked fixture. */

static char dir[TEST_DIR_LEN];

static void dir_create(void)
{
    test_dir_make(dir, "books");
}

static void dir_remove(void)
{
    test_dir_remove(dir);
}

/* The path of a file in the directory; each call's text lives for the next 8 calls. */
static const char *file(const char *name)
{
    static char paths[8][256];
    static int next;
    ck_assert_msg(dir[0], "cannot make a directory under /tmp");
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f && fwrite(data, 1, len, f) == len && !fclose(f), "cannot write %s", path);
}

static uint64_t random_at(uint64_t i, uint64_t seed)
{
    return XXH3_64bits_withSeed(&i, sizeof i, seed);
}

/* ------------------------------------------------------------------------------------------- */
/* Books made by the tests. */

static struct book_entry entry(uint64_t key, int from, int to, char suffix, uint32_t weight, uint32_t learn)
{
    return (struct book_entry){ key, (unsigned char)from, (unsigned char)to, suffix, weight, learn };
}

static void write_book(const char *path, const struct variant *v, const struct book_entry *e, size_t n)
{
    struct book_entries l = { 0 };
    char err[512];
    for (size_t i = 0; i < n; i++)
        ck_assert(book_entries_add(&l, &e[i]));
    ck_assert_msg(book_write(path, v, &l, err, sizeof err), "%s", err);
    book_entries_free(&l);
}

/* The entry for a move written as text, in the game's position. */
static struct book_entry entry_for(struct game *g, const char *move, uint32_t weight)
{
    char err[256];
    move_t m;
    ck_assert_msg(game_parse_move(g, move, &m, err, sizeof err), "%s", err);
    struct book_entry e = { .key = g->ops->position_key(g->pos), .weight = weight };
    book_entry_set_move(g->v, m, &e);
    return e;
}

/* Entries sorted by key and move, each move once: keys rise by random steps, 1 to 4 moves each. */
static size_t sorted_entries(const struct variant *v, struct book_entry *e, size_t max, uint64_t seed)
{
    static const char suffixes[] = { 0, 'q', 'r', 'b', 'n' };
    static const uint32_t extremes[] = { 0, 1, UINT32_MAX, 0x80000000u };
    uint64_t key = 0;
    size_t n = 0;
    for (uint64_t i = 0; n + 4 <= max; i++) {
        uint64_t r = random_at(i, seed);
        key += 1 + (r >> 40);
        for (int k = 0, moves = 1 + (int)(r & 3); k < moves; k++) {
            uint64_t s = random_at(n, seed + 1);
            e[n] = entry(key, k, (int)(s % (uint64_t)v->geo.ncells), suffixes[(s >> 8) % 5], (uint32_t)(s >> 16),
                         (uint32_t)(s >> 48));
            if (s % 7 == 0)
                e[n].weight = extremes[(s >> 3) % 4];
            if (s % 11 == 0)
                e[n].learn = extremes[(s >> 5) % 4];
            n++;
        }
    }
    return n;
}

static bool same_move(const struct book_entry *a, const struct book_entry *b)
{
    return a->key == b->key && a->from == b->from && a->to == b->to && a->suffix == b->suffix;
}

static void expect_same_entry(const struct book_entry *a, const struct book_entry *b, size_t i)
{
    ck_assert_msg(same_move(a, b) && a->weight == b->weight && a->learn == b->learn, "entry %zu differs", i);
}

/* Opening must fail with one line that holds the text. */
static void expect_refused(const char *path, const struct variant *v, const char *text)
{
    struct book b;
    char err[1024] = "";
    ck_assert_msg(!book_open(&b, path, v, err, sizeof err), "%s opened, expected '%s'", path, text);
    ck_assert_msg(strstr(err, text) && !strchr(err, '\n'), "expected '%s' in the one-line error '%s'", text, err);
    ck_assert(b.n == 0 && b.e == NULL && b.v == NULL);
}

/* ------------------------------------------------------------------------------------------- */
/* The format. */

START_TEST(test_round_trip)
{
    const struct variant *v = test_variant("glinski");
    enum { N = 3000 };
    static struct book_entry want[N], shuffled[N];
    size_t n = sorted_entries(v, want, N, 1);
    memcpy(shuffled, want, sizeof want);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = random_at(i, 2) % (i + 1);
        struct book_entry t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    write_book(file("round.book"), v, shuffled, n);
    struct book b;
    char err[512];
    ck_assert_msg(book_open(&b, file("round.book"), v, err, sizeof err), "%s", err);
    ck_assert_uint_eq(b.n, n);
    size_t positions = 0;
    for (size_t i = 0; i < n; i++) {
        expect_same_entry(&b.e[i], &want[i], i);
        positions += !i || want[i].key != want[i - 1].key;
    }
    ck_assert_uint_eq(b.npositions, positions);
    book_close(&b);
    /* Without a variant, the one the book names. */
    ck_assert_msg(book_open(&b, file("round.book"), NULL, err, sizeof err), "%s", err);
    ck_assert_ptr_eq(b.v, v);
    book_close(&b);
}
END_TEST

static int key_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = ((const struct book_entry *)b)->key;
    return (x > y) - (x < y);
}

START_TEST(test_lookup)
{
    const struct variant *v = test_variant("glinski");
    enum { N = 2000 };
    static struct book_entry want[N];
    size_t n = sorted_entries(v, want, N, 3);
    write_book(file("lookup.book"), v, want, n);
    struct book b;
    char err[512];
    ck_assert_msg(book_open(&b, file("lookup.book"), v, err, sizeof err), "%s", err);
    /* Every stored key finds exactly its entries, and its neighbours find nothing. */
    for (size_t i = 0, count; i < n; i += count) {
        size_t at = book_find(&b, want[i].key, &count);
        ck_assert_uint_eq(at, i);
        ck_assert_uint_ge(count, 1);
        for (size_t k = 0; k < count; k++)
            ck_assert(b.e[i + k].key == want[i].key);
        ck_assert(i + count == n || want[i + count].key != want[i].key);
        uint64_t near[2] = { want[i].key - 1, want[i].key + 1 };
        for (int k = 0; k < 2; k++) {
            bool stored = bsearch(&near[k], want, n, sizeof *want, key_compare) != NULL;
            book_find(&b, near[k], &count);
            ck_assert_uint_eq(count, stored);
        }
        book_find(&b, want[i].key, &count);
    }
    for (uint64_t i = 0; i < 20000; i++) {
        uint64_t key = i < 2 ? (i ? UINT64_MAX : 0) : random_at(i, 4) >> (i % 20);
        size_t count;
        book_find(&b, key, &count);
        ck_assert_uint_eq(count > 0, bsearch(&key, want, n, sizeof *want, key_compare) != NULL);
    }
    book_close(&b);
    /* An empty book finds nothing. */
    write_book(file("empty.book"), v, NULL, 0);
    ck_assert_msg(book_open(&b, file("empty.book"), v, err, sizeof err), "%s", err);
    size_t count;
    book_find(&b, 0, &count);
    ck_assert_uint_eq(count, 0);
    book_close(&b);
}
END_TEST

/* The bytes of docs/books.md, written out by hand. */
START_TEST(test_layout)
{
    const struct variant *v = test_variant("glinski");
    struct book_entry e = entry(0x0102030405060708u, 1, 2, 'q', 0x0a0b0c0du, 0x11121314u);
    write_book(file("layout.book"), v, &e, 1);
    unsigned char want[BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE] = "SENNBOOK\1\0\0\0\24\0\0\0";
    for (int i = 0; i < 8; i++)
        want[16 + i] = (unsigned char)(v->fingerprint >> (8 * i));
    want[24] = 1;
    memcpy(want + 32, "glinski", 7);
    static const unsigned char entry_bytes[BOOK_ENTRY_SIZE] = { 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 'q', 0,
                                                                0x0d, 0x0c, 0x0b, 0x0a, 0x14, 0x13, 0x12, 0x11 };
    memcpy(want + BOOK_HEADER_SIZE, entry_bytes, sizeof entry_bytes);
    size_t len;
    unsigned char *got = test_file_read(file("layout.book"), &len);
    ck_assert_uint_eq(len, sizeof want);
    for (size_t i = 0; i < len; i++)
        ck_assert_msg(got[i] == want[i], "byte %zu is %02x, expected %02x", i, got[i], want[i]);
    free(got);
}
END_TEST

START_TEST(test_variant_mismatch)
{
    const struct variant *glinski = test_variant("glinski"), *mccooey = test_variant("mccooey");
    struct book_entry e = entry(1, 0, 1, 0, 1, 0);
    write_book(file("g.book"), glinski, &e, 1);
    expect_refused(file("g.book"), mccooey, "the book is for variant 'glinski', not 'mccooey'");
    size_t len;
    unsigned char *data = test_file_read(file("g.book"), &len);
    data[16] ^= 1;
    write_bytes(file("other-definition.book"), data, len);
    expect_refused(file("other-definition.book"), glinski, "built for another definition of 'glinski'");
    expect_refused(file("other-definition.book"), NULL, "built for another definition of 'glinski'");
    data[16] ^= 1;
    memcpy(data + 32, "no-such", 7);
    write_bytes(file("unknown.book"), data, len);
    expect_refused(file("unknown.book"), NULL, "the book is for variant 'no-such', which is not loaded");
    free(data);
}
END_TEST

/* Writes the base book with one change at a byte offset and expects the error. */
static void expect_damage(const unsigned char *base, size_t len, size_t at, unsigned char byte, const char *text)
{
    unsigned char copy[BOOK_HEADER_SIZE + 8 * BOOK_ENTRY_SIZE];
    ck_assert(len <= sizeof copy);
    memcpy(copy, base, len);
    copy[at] = byte;
    write_bytes(file("damaged.book"), copy, len);
    expect_refused(file("damaged.book"), test_variant("glinski"), text);
}

START_TEST(test_damaged_files)
{
    const struct variant *v = test_variant("glinski");
    struct book_entry e[3] = { entry(5, 10, 11, 0, 3, 0), entry(5, 10, 12, 0, 4, 0), entry(9, 20, 21, 'q', 5, 0) };
    write_book(file("base.book"), v, e, 3);
    size_t len;
    unsigned char *base = test_file_read(file("base.book"), &len);
    ck_assert_uint_eq(len, BOOK_HEADER_SIZE + 3 * BOOK_ENTRY_SIZE);
    /* Every truncation, down to nothing, from a file and from memory (book_open_bytes, the fuzzer's way in). */
    struct book b;
    char err[512];
    for (size_t cut = 0; cut < len; cut++) {
        const char *why = cut < BOOK_HEADER_SIZE ? "shorter than a book header" : "truncated";
        write_bytes(file("cut.book"), base, cut);
        expect_refused(file("cut.book"), v, why);
        ck_assert(!book_open_bytes(&b, base, cut, "cut", v, err, sizeof err));
        ck_assert_msg(strstr(err, "cut: ") == err && strstr(err, why) && !b.e && !b.n, "%s", err);
    }
    ck_assert_msg(book_open_bytes(&b, base, len, "whole", NULL, err, sizeof err), "%s", err);
    ck_assert(b.v == v && b.n == 3 && b.npositions == 2 && b.e[2].suffix == 'q' && b.e[2].weight == 5);
    book_close(&b);
    /* One byte too many. */
    unsigned char longer[BOOK_HEADER_SIZE + 3 * BOOK_ENTRY_SIZE + 1] = { 0 };
    memcpy(longer, base, len);
    write_bytes(file("long.book"), longer, sizeof longer);
    expect_refused(file("long.book"), v, "truncated or damaged");
    const size_t e1 = BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE;
    expect_damage(base, len, 0, 'X', "not a Sennight book");
    expect_damage(base, len, 8, 2, "book format version 2");
    expect_damage(base, len, 12, 16, "entry size 16");
    expect_damage(base, len, 24, 4, "the header says 4 entries");
    expect_damage(base, len, 31, 1, "the header says");
    expect_damage(base, len, 32, 0, "bad variant name");
    expect_damage(base, len, 32 + 7 + 3, 'x', "bad variant name");
    expect_damage(base, len, 33, '\n', "bad variant name");
    expect_damage(base, len, e1 + 9, 10, "entry 1 is out of order");
    expect_damage(base, len, e1 + 9, 11, "entry 1 is out of order");
    expect_damage(base, len, e1 + BOOK_ENTRY_SIZE, 4, "entry 2 is out of order");
    expect_damage(base, len, e1 + 8, (unsigned char)v->geo.ncells, "entry 1 has a cell outside the board");
    expect_damage(base, len, e1 + 9, 255, "entry 1 has a cell outside the board");
    expect_damage(base, len, e1 + 10, 'z', "entry 1 has a bad move");
    expect_damage(base, len, e1 + 10, 'Q', "entry 1 has a bad move");
    expect_damage(base, len, e1 + 11, 1, "entry 1 has a bad move");
    free(base);
    expect_refused(dir, v, "not a regular file");
    expect_refused(file("missing.book"), v, "No such file or directory");
}
END_TEST

/* Random bytes, some behind a good header: never a crash, and a book that opens gives legal moves. */
START_TEST(test_garbage_files)
{
    const struct variant *v = test_variant("glinski");
    struct game g;
    test_game(&g, "glinski", NULL, false);
    struct book_entry e = entry(g.ops->position_key(g.pos), 0, 1, 0, 1, 0);
    write_book(file("head.book"), v, &e, 1);
    size_t len;
    unsigned char *head = test_file_read(file("head.book"), &len), data[BOOK_HEADER_SIZE + 16 * BOOK_ENTRY_SIZE];
    int opened = 0;
    for (uint64_t i = 0; i < 400; i++) {
        size_t n = random_at(i, 5) % sizeof data, entries = n / BOOK_ENTRY_SIZE;
        for (size_t k = 0; k < n; k++)
            data[k] = (unsigned char)random_at(i * 1000 + k, 6);
        if (i % 2 && n >= BOOK_HEADER_SIZE) {
            entries = (n - BOOK_HEADER_SIZE) / BOOK_ENTRY_SIZE;
            n = BOOK_HEADER_SIZE + entries * BOOK_ENTRY_SIZE;
            memcpy(data, head, BOOK_HEADER_SIZE);
            data[24] = (unsigned char)entries;
            /* Small cells, a start-position key and sorted keys on some entries, to pass more checks. */
            for (size_t k = 0; k < entries && i % 4 == 1; k++) {
                unsigned char *p = data + BOOK_HEADER_SIZE + k * BOOK_ENTRY_SIZE;
                memcpy(p, head + BOOK_HEADER_SIZE, 8);
                p[8] = (unsigned char)k;
                p[9] %= 91;
                p[10] = k % 3 == 2 ? "qrbnz"[p[10] % 5] : 0;
                p[11] = 0;
            }
        }
        write_bytes(file("garbage.book"), data, n);
        struct book b;
        char err[1024] = "";
        if (!book_open(&b, file("garbage.book"), v, err, sizeof err)) {
            ck_assert_msg(err[0] && !strchr(err, '\n'), "garbage %llu: error '%s'", (unsigned long long)i, err);
            continue;
        }
        opened++;
        struct book_move m[MAX_MOVES];
        int skipped, found = book_probe(&b, &g, m, &skipped);
        for (int k = 0; k < found; k++) {
            char text[16], why[256];
            move_t legal;
            move_to_text(v, m[k].move, text);
            ck_assert_msg(game_parse_move(&g, text, &legal, why, sizeof why) && legal == m[k].move, "%s", text);
        }
        book_close(&b);
    }
    ck_assert_int_gt(opened, 10);
    free(head);
    game_free(&g);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Probing and picking. */

START_TEST(test_probe_legal_only)
{
    const struct variant *v = test_variant("glinski");
    struct game g, after;
    test_game(&g, "glinski", NULL, false);
    test_game(&after, "glinski", NULL, false);
    char err[256], *moves[] = { "e4e6" };
    ck_assert(game_set_position(&after, NULL, moves, 1, err, sizeof err));
    uint64_t start = g.ops->position_key(g.pos);
    struct book_entry e[] = {
        entry_for(&g, "c1f4", 5),
        entry_for(&g, "e4e6", 7),
        entry_for(&after, "f7f6", 9),           /* Black's move: stored under the start key below */
        entry(start, 0, 1, 0, 11, 0),           /* from an empty cell */
        entry(start, 20, 20, 'q', 13, 0),       /* nowhere */
        entry_for(&after, "f7f6", 3),
    };
    e[2].key = start;
    write_book(file("probe.book"), v, e, 6);
    struct book b;
    ck_assert_msg(book_open(&b, file("probe.book"), v, err, sizeof err), "%s", err);
    struct book_move m[MAX_MOVES];
    int skipped, n = book_probe(&b, &g, m, &skipped);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(skipped, 3);
    char text[16];
    move_to_text(v, m[0].move, text);
    ck_assert_str_eq(text, "c1f4");
    ck_assert_uint_eq(m[0].weight, 5);
    move_to_text(v, m[1].move, text);
    ck_assert_str_eq(text, "e4e6");
    ck_assert_uint_eq(m[1].weight, 7);
    ck_assert_int_eq(book_probe(&b, &after, m, NULL), 1);
    ck_assert_uint_eq(m[0].weight, 3);
    book_close(&b);
    /* A promotion keeps its piece; a book of another variant gives nothing. */
    ck_assert(game_set_position(&g, PROMOTION, NULL, 0, err, sizeof err));
    struct book_entry promo[] = { entry_for(&g, "f10f11n", 2), entry_for(&g, "f10f11q", 8) };
    write_book(file("promo.book"), v, promo, 2);
    ck_assert_msg(book_open(&b, file("promo.book"), v, err, sizeof err), "%s", err);
    ck_assert_int_eq(book_probe(&b, &g, m, NULL), 2);
    move_to_text(v, m[1].move, text);
    ck_assert_str_eq(text, "f10f11q");
    struct game other;
    test_game(&other, "mccooey", NULL, false);
    ck_assert_int_eq(book_probe(&b, &other, m, NULL), 0);
    book_close(&b);
    game_free(&other);
    game_free(&after);
    game_free(&g);
}
END_TEST

START_TEST(test_pick)
{
    struct book_move m[4] = { { 1, 0, 0 }, { 2, 10, 0 }, { 3, 30, 0 }, { 4, 0, 0 } };
    int count[4] = { 0 };
    for (uint64_t r = 0; r < 400; r++)
        count[book_pick(m, 4, BOOK_WEIGHTED, r)]++;
    ck_assert_int_eq(count[0], 0);
    ck_assert_int_eq(count[1], 100);
    ck_assert_int_eq(count[2], 300);
    ck_assert_int_eq(count[3], 0);
    ck_assert_int_eq(book_pick(m, 4, BOOK_BEST, 12345), 2);
    m[1].weight = 30;
    ck_assert_int_eq(book_pick(m, 4, BOOK_BEST, 0), 1);
    ck_assert_int_eq(book_pick(m, 1, BOOK_WEIGHTED, 7), -1);
    ck_assert_int_eq(book_pick(m, 1, BOOK_BEST, 7), -1);
    ck_assert_int_eq(book_pick(m, 0, BOOK_WEIGHTED, 7), -1);
    m[2].weight = UINT32_MAX;
    m[3].weight = UINT32_MAX;
    ck_assert_int_eq(book_pick(m, 4, BOOK_WEIGHTED, (uint64_t)UINT32_MAX * 2 + 29), 3);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Building. */

/* Three games written by the match runner's own writer (games/pgn.c), with UCI movetext as older
 * records have it and in SAN, then by hand: Black to move first, a comment across lines, a game of
 * another variant, an unscored one. */
static void write_records(const char *path)
{
    static const struct {
        const char *moves, *movetext;
        int num[2], den;
        const char *fen;
    } games[] = {
        { "c1f4 c8f8 i1h2", "1. c1f4\nc8f8\n2. i1h2", { 1, 0 }, 1, NULL },
        { "c1f4 i8h8", "1. Rcf4\nRh8", { 1, 1 }, 2, NULL },
        { "b6b4", "1... Qb4", { 1, 3 }, 4, "K5/5q1/6r1/9/10/11/10/9/8/7/5k b - - 0 1" },
    };
    const struct variant *v = test_variant("glinski");
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    for (int i = 0; i < 3; i++) {
        struct game_record r = { .term = TERM_ADJUDICATED_DRAW, .den = games[i].den, .narmies = 2, .left = { -1, -1 },
                                 .culprit = -1 };
        snprintf(r.fen, sizeof r.fen, "%s", games[i].fen ? games[i].fen : v->start_fen);
        snprintf(r.reason, sizeof r.reason, "game {%d}", i);
        text_printf(&r.moves, "%s", games[i].moves);
        text_printf(&r.movetext, "%s", games[i].movetext);
        r.nmoves = 1;
        for (const char *c = games[i].moves; *c; c++)
            r.nmoves += *c == ' ';
        r.num[0] = games[i].num[0];
        r.num[1] = games[i].num[1];
        struct pgn_tags tags = { .v = v, .event = "test", .date = "2026.01.01", .time_control = "-", .round = i + 1,
                                 .player = { "a", "b" } };
        pgn_write(f, &tags, &r);
        game_record_free(&r);
    }
    fputs("[Variant \"mccooey\"]\n[Result \"1-0\"]\n\n1. c1c2 {not read} 1-0\n\n"
          "[Variant \"glinski\"] [Result \"*\"]\n1. c1f4 *\n"
          "[Event \"by hand\"]\n[Variant \"glinski\"]\n[Result \"0-1\"]\n\n1.c1f4 {a comment\nover two lines} c8f8 "
          "; to the end of the line\n2. d1g2 $1 0-1\n",
          f);
    fclose(f);
}

/* The entry of a move after the moves from the start; NULL if the book has none. */
static const struct book_entry *find_entry(const struct book_entries *l, const char *before, const char *move)
{
    struct game g;
    char err[256], copy[256], *words[16], *save;
    int n = 0;
    snprintf(copy, sizeof copy, "%s", before);
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    test_game(&g, "glinski", NULL, false);
    ck_assert_msg(game_set_position(&g, NULL, words, n, err, sizeof err), "%s", err);
    struct book_entry want = entry_for(&g, move, 0);
    game_free(&g);
    for (size_t i = 0; i < l->n; i++)
        if (same_move(&l->e[i], &want))
            return &l->e[i];
    return NULL;
}

START_TEST(test_build_from_records)
{
    const struct variant *v = test_variant("glinski");
    struct book_entries l = { 0 };
    struct games_stats st = { 0 };
    char err[512];
    write_records(file("games.pgn"));
    ck_assert_msg(book_add_games(&l, v, file("games.pgn"), 100, &st, err, sizeof err), "%s", err);
    ck_assert_int_eq(st.games, 6);
    ck_assert_int_eq(st.used, 4);
    ck_assert_int_eq(st.other_variant, 1);
    ck_assert_int_eq(st.unscored, 1);
    ck_assert_uint_eq(book_drop_rare(&l, 1), 0);
    /* c1f4: a win (12), a draw (6), a loss (0). */
    const struct book_entry *e = find_entry(&l, "", "c1f4");
    ck_assert(e != NULL);
    ck_assert_uint_eq(e->weight, 18);
    ck_assert_uint_eq(e->learn, 3);
    ck_assert_uint_eq(find_entry(&l, "c1f4", "c8f8")->weight, 12);
    ck_assert_uint_eq(find_entry(&l, "c1f4", "c8f8")->learn, 2);
    ck_assert_uint_eq(find_entry(&l, "c1f4", "i8h8")->weight, 6);
    ck_assert_uint_eq(find_entry(&l, "c1f4 c8f8", "i1h2")->weight, 12);
    ck_assert_uint_eq(find_entry(&l, "c1f4 c8f8", "d1g2")->weight, 0);
    ck_assert_uint_eq(l.n, 6);   /* the five above and Black's b6b4 */
    /* min-games drops the moves played less often; max-ply stops early. */
    ck_assert_uint_eq(book_drop_rare(&l, 2), 4);
    ck_assert_uint_eq(l.n, 2);
    book_entries_free(&l);
    st = (struct games_stats){ 0 };
    ck_assert_msg(book_add_games(&l, v, file("games.pgn"), 1, &st, err, sizeof err), "%s", err);
    book_entries_combine(&l);
    ck_assert_uint_eq(l.n, 2);   /* c1f4 and b6b4 */
    book_entries_free(&l);
}
END_TEST

/* Damaged record files: one error line naming the file and line, never a crash. */
START_TEST(test_bad_records)
{
    static const struct {
        const char *text, *error;
    } bad[] = {
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n\n1. c1f4 c8f8 2. c1c2 1-0\n", ":1: the game's move 3: illegal move 'c1c2'" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n\n1. c1f4 c8f8\n", ": the game that starts on line 1 has no result" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n\n1. c1f4\n\n[Variant \"glinski\"]\n", ":6: a tag among the moves: the game that "
          "starts on line 1 has no result" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n\n1. c1f4 {never closed\n1-0\n", "unterminated comment" },
        { "[Variant \"glinski\"]\n[Result \"2-0\"]\n\n1. c1f4 1-0\n", "bad Result tag '2-0' for 2 players" },
        { "[Variant \"glinski\"]\n[Result \"1-0-0\"]\n\n1-0\n", "bad Result tag" },
        { "[Variant \"glinski\"]\n[Result \"1/0-1\"]\n\n1-0\n", "bad Result tag" },
        { "[Result \"1-0\"]\n\n1. c1f4 1-0\n", ":1: the game has no Variant tag" },
        { "[Variant \"glinski\"]\n\n1. c1f4 1-0\n", "has no Result tag" },
        { "[Variant \"glinski\"]\n[FEN \"K5/7\"]\n[Result \"1-0\"]\n\n1-0\n", ":1: bad FEN tag" },
        { "\n\n[Variant glinski]\n", ":3: bad tag line" },
        { "[Variant \"glinski]\n", "unterminated tag value" },
        { "[Variant \"glinski\" x\n", "expected ']'" },
        { "1. c1f4 1-0\n", ":1: expected a tag" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n1. c1f4 (1. d1f4 1-0\n", "a variation '(' not closed before the result" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n1. c1f4 ) 1-0\n", "a ')' without its '('" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n(1. c1f4) 1-0\n", "a variation '(' before any move" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n1. c1f4c1f4c1f4c1f4c1f4c1f4 1-0\n", "bad move 'c1f4c1f4c1f4c1f4c1f4...'" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n1. 17 1-0\n", "unexpected '17'" },
        { "[Variant \"glinski\"]\n[Result \"1-0\"]\n\n1. c1\0f4 1-0\n", "holds a NUL byte" },
    };
    const struct variant *v = test_variant("glinski");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct book_entries l = { 0 };
        struct games_stats st = { 0 };
        char err[512] = "";
        size_t len = strlen(bad[i].text);
        if (strstr(bad[i].error, "NUL"))
            len += 1 + strlen(bad[i].text + len + 1);
        write_bytes(file("bad.pgn"), bad[i].text, len);
        ck_assert_msg(!book_add_games(&l, v, file("bad.pgn"), 100, &st, err, sizeof err), "record %zu was read", i);
        ck_assert_msg(strstr(err, bad[i].error) && strstr(err, "bad.pgn") && !strchr(err, '\n'),
                      "record %zu: expected '%s' in '%s'", i, bad[i].error, err);
        book_entries_free(&l);
    }
    /* Random bytes and random slices of a good file. */
    write_records(file("games.pgn"));
    size_t len;
    unsigned char *good = test_file_read(file("games.pgn"), &len), noise[512];
    for (uint64_t i = 0; i < 200; i++) {
        size_t n = random_at(i, 7) % sizeof noise;
        for (size_t k = 0; k < n; k++) {
            uint64_t r = random_at(i * 1000 + k, 8);
            noise[k] = i % 2 ? (unsigned char)r : good[(k + r % 4 * (r % 3 == 0)) % len];
        }
        write_bytes(file("noise.pgn"), noise, n);
        struct book_entries l = { 0 };
        struct games_stats st = { 0 };
        char err[512] = "";
        if (!book_add_games(&l, v, file("noise.pgn"), 100, &st, err, sizeof err))
            ck_assert_msg(err[0] && !strchr(err, '\n'), "noise %llu: '%s'", (unsigned long long)i, err);
        book_entries_free(&l);
    }
    free(good);
}
END_TEST

START_TEST(test_expand)
{
    const struct variant *v = test_variant("glinski");
    struct expand_options o = { .plies = 2, .margin = 40, .width = 3, .nodes = 3000, .hash_mb = 1 };
    struct book_entries l[2] = { 0 };
    struct expand_stats st;
    char err[512];
    for (int run = 0; run < 2; run++) {
        ck_assert_msg(book_expand(&l[run], v, &o, NULL, &st, err, sizeof err), "%s", err);
        book_entries_combine(&l[run]);
    }
    /* Deterministic: the same entries twice. */
    ck_assert_uint_eq(l[0].n, l[1].n);
    for (size_t i = 0; i < l[0].n; i++)
        expect_same_entry(&l[0].e[i], &l[1].e[i], i);
    ck_assert_uint_eq(st.unresolved, 0);
    write_book(file("expand.book"), v, l[0].e, l[0].n);
    struct book b;
    ck_assert_msg(book_open(&b, file("expand.book"), v, err, sizeof err), "%s", err);
    ck_assert_uint_eq(b.npositions, st.positions);
    /* The root: at most width moves, the best with weight margin + 1; then every position they lead
     * to is in the book with all its entries legal. */
    struct game g;
    struct book_move root[MAX_MOVES], m[MAX_MOVES];
    test_game(&g, "glinski", NULL, false);
    int skipped, n = book_probe(&b, &g, root, &skipped);
    ck_assert_int_ge(n, 1);
    ck_assert_int_le(n, 3);
    ck_assert_int_eq(skipped, 0);
    ck_assert_uint_eq(st.positions, 1 + (size_t)n);
    uint32_t heaviest = 0;
    for (int i = 0; i < n; i++) {
        heaviest = root[i].weight > heaviest ? root[i].weight : heaviest;
        ck_assert_uint_ge(root[i].weight, 1);
        ck_assert_uint_le(root[i].weight, 41);
        game_play(&g, root[i].move, NULL);
        ck_assert_int_ge(book_probe(&b, &g, m, &skipped), 1);
        ck_assert_int_eq(skipped, 0);
        ck_assert(game_set_position(&g, NULL, NULL, 0, err, sizeof err));
    }
    ck_assert_uint_eq(heaviest, 41);
    book_close(&b);
    game_free(&g);
    book_entries_free(&l[0]);
    book_entries_free(&l[1]);
    /* Options that make no sense are refused. */
    o.width = 0;
    ck_assert(!book_expand(&l[0], v, &o, NULL, &st, err, sizeof err));
    ck_assert(strstr(err, "bad options"));
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* The command line, run in the test's own process with its output caught. */

struct cli_run {
    int status;
    char out[8192], err[8192];
};

static void catch_stream(FILE *stream, int fd, int *saved, FILE **tmp)
{
    fflush(stream);
    *tmp = tmpfile();
    ck_assert(*tmp != NULL);
    *saved = dup(fd);
    dup2(fileno(*tmp), fd);
}

static void release_stream(FILE *stream, int fd, int saved, FILE *tmp, char *text, size_t len)
{
    fflush(stream);
    dup2(saved, fd);
    close(saved);
    rewind(tmp);
    size_t n = fread(text, 1, len - 1, tmp);
    text[n] = 0;
    fclose(tmp);
}

/* Runs `sennight book` with the words (NULL-terminated). */
static struct cli_run *cli(const char *const *words)
{
    static struct cli_run r;
    char *argv[64];
    int argc = 0, out_fd, err_fd;
    FILE *out_tmp, *err_tmp;
    for (; words[argc]; argc++)
        argv[argc] = (char *)words[argc];
    catch_stream(stdout, STDOUT_FILENO, &out_fd, &out_tmp);
    catch_stream(stderr, STDERR_FILENO, &err_fd, &err_tmp);
    r.status = book_main(argc, argv);
    release_stream(stdout, STDOUT_FILENO, out_fd, out_tmp, r.out, sizeof r.out);
    release_stream(stderr, STDERR_FILENO, err_fd, err_tmp, r.err, sizeof r.err);
    return &r;
}

static void expect_cli(const char *const *words, int status, const char *out, const char *err)
{
    struct cli_run *r = cli(words);
    ck_assert_msg(r->status == status && strstr(r->out, out) && strstr(r->err, err),
                  "%s %s: status %d (expected %d), stdout '%s' (expected '%s'), stderr '%s' (expected '%s')",
                  words[0] ? words[0] : "", words[0] && words[1] ? words[1] : "", r->status, status, r->out, out,
                  r->err, err);
}

START_TEST(test_cli_build_show_merge)
{
    char err[512];
    write_records(file("games.pgn"));
    const char *games = file("games.pgn"), *a = file("a.book"), *b = file("b.book"), *c = file("c.book");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "--min-games", "1", NULL },
               0, "a.book: 6 entries, 4 positions, variant glinski; from 4 of 6 games (1 of other variants, 1 unscored)", "");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", b, "--expand", "--plies", "1", "--margin", "0",
                                 "--depth", "2", "--width", "2", NULL },
               0, "1 positions, variant glinski; 1 positions searched", "ply 1: 1 positions searched");
    expect_cli((const char *[]){ "show", a, NULL }, 0, "c1f4     weight         18  100.0%  learn 3", "");
    expect_cli((const char *[]){ "show", "--variant", "glinski", a, "startpos", NULL }, 0, "variant glinski, 6 entries, 4 positions", "");
    expect_cli((const char *[]){ "show", a, "K5/5q1/6r1/9/10/11/10/9/8/7/5k", "b", NULL }, 0, "b6b4     weight          9", "");
    expect_cli((const char *[]){ "show", a, PROMOTION, NULL }, 0, "): not in the book", "");
    expect_cli((const char *[]){ "merge", a, b, "--out", c, NULL }, 0, "c.book: ", "");
    struct book in[3];
    for (int i = 0; i < 3; i++)
        ck_assert_msg(book_open(&in[i], i ? i == 1 ? b : c : a, NULL, err, sizeof err), "%s", err);
    /* The merged book holds every entry of both, with the weights of a move in both summed. */
    size_t shared = 0;
    for (size_t i = 0; i < in[2].n; i++) {
        uint64_t weight = 0, learn = 0;
        int found = 0;
        for (int k = 0; k < 2; k++)
            for (size_t j = 0; j < in[k].n; j++)
                if (same_move(&in[k].e[j], &in[2].e[i])) {
                    weight += in[k].e[j].weight;
                    learn += in[k].e[j].learn;
                    found++;
                }
        shared += found == 2;
        ck_assert_uint_eq(in[2].e[i].weight, weight);
        ck_assert_uint_eq(in[2].e[i].learn, learn);
    }
    ck_assert_uint_eq(in[2].n, in[0].n + in[1].n - shared);
    for (int i = 0; i < 3; i++)
        book_close(&in[i]);
}
END_TEST

START_TEST(test_cli_errors)
{
    write_records(file("games.pgn"));
    const char *games = file("games.pgn"), *a = file("a.book"), *m = file("m.book");
    expect_cli((const char *[]){ "build", "--variant", "mccooey", "--out", m, "--games", games, "--min-games", "1", NULL }, 0,
               "m.book: 1 entries, 1 positions, variant mccooey; from 1 of 6 games (5 of other variants", "");
    static const char usage[] = "usage: sennight book build";
    expect_cli((const char *[]){ NULL }, 2, "", "build, show, merge or openings is expected");
    expect_cli((const char *[]){ "frobnicate", NULL }, 2, "", usage);
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, NULL }, 2, "", "either --games or --expand");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "--expand", NULL }, 2, "",
               "either --games or --expand");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "--plies", "3", NULL }, 2,
               "", "--plies goes with --expand");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--expand", "--max-ply", "3", NULL }, 2, "",
               "--max-ply goes with --games");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--expand", "--plies", "3", "--nodes", "9", NULL },
               2, "", "--expand needs --plies, --margin");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "--max-ply", "0", NULL }, 2, "",
               "--max-ply: a number from 1 to 10000 is expected, not '0'");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", NULL }, 2, "", "--games needs a value");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "extra", NULL }, 2, "",
               "unexpected 'extra'");
    expect_cli((const char *[]){ "show", "--out", a, NULL }, 2, "", "--out does not go with this command");
    expect_cli((const char *[]){ "show", "--bogus", NULL }, 2, "", "unknown option '--bogus'");
    expect_cli((const char *[]){ "show", NULL }, 2, "", "which book?");
    expect_cli((const char *[]){ "merge", a, NULL }, 2, "", "two books and --out are needed");
    expect_cli((const char *[]){ "build", "--variant", "nosuch", "--out", a, "--games", games, NULL }, 1, "",
               "unknown variant 'nosuch'");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", file("none.pgn"), NULL }, 1, "",
               "none.pgn: No such file or directory");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", file("no/dir.book"), "--games", games, NULL }, 1,
               "", "dir.book: cannot write");
    expect_cli((const char *[]){ "show", games, NULL }, 1, "", "games.pgn: not a Sennight book");
    expect_cli((const char *[]){ "show", "--variant", "glinski", m, NULL }, 1, "", "the book is for variant 'mccooey', not 'glinski'");
    expect_cli((const char *[]){ "show", m, "x/y", NULL }, 1, "", "bad FEN");
    expect_cli((const char *[]){ "build", "--variant", "glinski", "--out", a, "--games", games, "--min-games", "1", NULL }, 0,
               "", "");
    expect_cli((const char *[]){ "merge", a, m, "--out", file("x.book"), NULL }, 1, "",
               "the book is for variant 'mccooey', not 'glinski'");
    ck_assert(access(file("x.book"), F_OK) != 0);
    expect_cli((const char *[]){ "show", "--variant-file", file("none.ini"), a, NULL }, 1, "", "none.ini");
}
END_TEST

/* How long the executable may take to answer: generous, as a hang is all it has to catch. */
static int reply_ms(void)
{
    return (int)(test_timeout(5.0) * 1000);
}

/* `sennight book` reached through the executable's command line. */
START_TEST(test_executable_dispatch)
{
    struct proc p;
    pipe_start(&p, (const char *const[]){ "book", "--help", NULL });
    const char *line = pipe_read_line(&p, reply_ms());
    ck_assert_msg(line && strstr(line, "usage: sennight book build"), "%s", line ? line : "(nothing)");
    struct proc_exit x = pipe_wait(&p, reply_ms());
    ck_assert(x.exited && x.code == 0);
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* OwnBook through the real executable. */

/* Sends the lines and isready; returns everything printed before readyok, one line each. */
static const char *uci(struct proc *p, const char *lines)
{
    static char out[16384];
    size_t len = 0;
    char script[4096];
    snprintf(script, sizeof script, "%s\nisready", lines);
    ck_assert_msg(pipe_send(p, script, reply_ms()), "cannot send '%s'", lines);
    out[0] = 0;
    for (const char *line; (line = pipe_read_line(p, reply_ms())) && strcmp(line, "readyok");)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s\n", line);
    return out;
}

static void expect_uci(struct proc *p, const char *lines, const char *want)
{
    const char *got = uci(p, lines);
    ck_assert_msg(strstr(got, want), "'%s': expected '%s', got '%s'", lines, want, got);
}

/* A search (not the book) answers: the engine's own info lines, then bestmove. */
static void expect_search(struct proc *p, const char *go)
{
    ck_assert(pipe_send(p, go, reply_ms()));
    bool searched = false;
    const char *line;
    while ((line = pipe_read_line(p, reply_ms())) && strncmp(line, "bestmove", 8)) {
        ck_assert_msg(!strstr(line, "book move"), "'%s' played from the book: %s", go, line);
        searched |= !strncmp(line, "info depth", 10);
    }
    ck_assert_msg(line && searched, "'%s': no search", go);
}

START_TEST(test_uci_own_book)
{
    const struct variant *v = test_variant("glinski");
    struct game g;
    test_game(&g, "glinski", NULL, false);
    struct book_entry e[] = { entry_for(&g, "c1f4", 1), entry_for(&g, "i1h2", 1), entry_for(&g, "d1f4", 0) };
    write_book(file("even.book"), v, e, 3);
    e[1].weight = 5;
    write_book(file("uneven.book"), v, e, 3);
    game_free(&g);
    struct proc p;
    pipe_start(&p, NULL);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "setoption name BookFile value %s", file("even.book"));
    expect_uci(&p, cmd, "info string book ");
    expect_uci(&p, cmd, "3 entries, 1 positions, variant glinski");
    /* OwnBook is off by default. */
    expect_search(&p, "go depth 1");
    uci(&p, "setoption name OwnBook value true\nposition startpos");
    /* Both moves of weight 1 come up, d1f4 of weight 0 never. */
    int seen[2] = { 0 };
    for (int i = 0; i < 40; i++) {
        const char *out = uci(&p, "go wtime 1000 btime 1000");
        bool first = strstr(out, "info string book move c1f4 (weight 1 of 2)\nbestmove c1f4\n") != NULL;
        ck_assert_msg(first || strstr(out, "info string book move i1h2 (weight 1 of 2)\nbestmove i1h2\n"), "%s", out);
        seen[first]++;
    }
    ck_assert_msg(seen[0] && seen[1], "always the same move: %d and %d", seen[0], seen[1]);
    snprintf(cmd, sizeof cmd, "setoption name BookFile value %s\nsetoption name BookVariety value best", file("uneven.book"));
    expect_uci(&p, cmd, "3 entries");
    for (int i = 0; i < 5; i++)
        expect_uci(&p, "go nodes 1000", "info string book move i1h2 (weight 5 of 6)\nbestmove i1h2\n");
    /* Analysis, pondering, a position out of the book, and BookDepth search as usual. */
    uci(&p, "setoption name UCI_AnalyseMode value true");
    expect_search(&p, "go nodes 1000");
    uci(&p, "setoption name UCI_AnalyseMode value false");
    expect_search(&p, "go depth 2 searchmoves c1f4");
    expect_search(&p, "go depth 2 mate 1");
    static const char *const endless[] = { "go infinite", "go ponder wtime 1000 btime 1000" };
    for (int i = 0; i < 2; i++) {
        ck_assert(pipe_send(&p, endless[i], reply_ms()));
        const char *out = uci(&p, "stop");
        ck_assert_msg(strstr(out, "bestmove") && !strstr(out, "book move"), "%s", out);
    }
    uci(&p, "position startpos moves c1f4");
    expect_search(&p, "go depth 1");
    uci(&p, "position fen " "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 2");
    uci(&p, "setoption name BookDepth value 1");
    expect_search(&p, "go depth 1");
    expect_uci(&p, "setoption name BookDepth value 2\ngo depth 1", "bestmove i1h2");
    /* Another variant: the file is glinski's, so mccooey gets its shipped book; the file comes back
     * with glinski. */
    expect_uci(&p, "setoption name UCI_Variant value mccooey", "books/mccooey.bin: ");
    expect_uci(&p, "position startpos\ngo depth 1", "info string book move ");
    expect_uci(&p, "setoption name UCI_Variant value glinski", "uneven.book: 3 entries, 1 positions, variant glinski");
    expect_uci(&p, "go depth 1", "bestmove i1h2");
    /* Bad files and values: one error line each, the position kept; the book is then not used. */
    uci(&p, "position startpos moves c1f4");
    char before[512];
    snprintf(before, sizeof before, "%s", strstr(uci(&p, "d"), "Fen: "));
    static const char *const bad[][2] = {
        { "setoption name OwnBook value maybe", "OwnBook: true or false" },
        { "setoption name UCI_AnalyseMode value 1", "UCI_AnalyseMode: true or false" },
        { "setoption name BookVariety value worst", "BookVariety: weighted or best" },
        { "setoption name BookDepth value -1", "BookDepth: a number" },
        { "setoption name BookFile value /nonexistent/x.book", "No such file or directory" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *out = uci(&p, bad[i][0]);
        ck_assert_msg(!strncmp(out, "info string error: ", 19) && strstr(out, bad[i][1]) && strchr(out, '\n') == out + strlen(out) - 1,
                      "'%s': %s", bad[i][0], out);
    }
    snprintf(cmd, sizeof cmd, "setoption name BookFile value %s", dir);
    expect_uci(&p, cmd, "info string no book for variant glinski in /");
    ck_assert_str_eq(strstr(uci(&p, "d"), "Fen: "), before);
    uci(&p, "position startpos");
    expect_search(&p, "go depth 1");
    uci(&p, "setoption name BookFile value <empty>");
    ck_assert(pipe_send(&p, "quit", reply_ms()));
    struct proc_exit x = pipe_wait(&p, reply_ms());
    ck_assert_msg(x.exited && x.code == 0, "the engine did not exit cleanly");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* Each book move of the start position comes up in `draws` timed searches, and nothing else. */
static int book_moves_seen(struct proc *p, int draws)
{
    char seen[8][16];
    int distinct = 0;
    for (int i = 0; i < draws; i++) {
        const char *out = uci(p, "go wtime 60000 btime 60000");
        char move[16], best[16];
        ck_assert_msg(sscanf(out, "info string book move %15s (weight %*u of %*u)\nbestmove %15s", move, best) == 2
                          && !strcmp(move, best), "%s", out);
        bool known = false;
        for (int k = 0; k < distinct; k++)
            known |= !strcmp(seen[k], move);
        if (!known && distinct < 8)
            snprintf(seen[distinct++], sizeof seen[0], "%s", move);
    }
    return distinct;
}

/* OwnBook with no BookFile plays the shipped book of each variant, says which, and varies its moves;
 * a BookFile directory holds a book per variant. OwnBook is off by default. */
START_TEST(test_uci_shipped_books)
{
    struct proc p;
    pipe_start(&p, NULL);
    expect_search(&p, "go wtime 1000 btime 1000");
    expect_uci(&p, "setoption name OwnBook value true", "info string book ");
    expect_uci(&p, "setoption name OwnBook value true", "books/glinski.bin: ");
    expect_uci(&p, "setoption name OwnBook value true", "positions, variant glinski\n");
    ck_assert_int_ge(book_moves_seen(&p, 20), 2);
    /* The book follows the variant. */
    expect_uci(&p, "setoption name UCI_Variant value mccooey", "books/mccooey.bin: ");
    uci(&p, "position startpos");
    ck_assert_int_ge(book_moves_seen(&p, 20), 2);
    expect_uci(&p, "setoption name UCI_Variant value haynie", "info string no book for variant haynie\n");
    uci(&p, "position startpos");
    expect_search(&p, "go wtime 1000 btime 1000");
    /* Never in analysis. */
    expect_uci(&p, "setoption name UCI_Variant value glinski\nposition startpos", "books/glinski.bin: ");
    uci(&p, "setoption name UCI_AnalyseMode value true");
    expect_search(&p, "go wtime 1000 btime 1000");
    uci(&p, "setoption name UCI_AnalyseMode value false");
    /* A directory: <variant>.bin in it, or no book for the variant. */
    const struct variant *v = test_variant("glinski");
    struct game g;
    test_game(&g, "glinski", NULL, false);
    struct book_entry e = entry_for(&g, "d1f4", 1);
    game_free(&g);
    write_book(file("glinski.bin"), v, &e, 1);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "setoption name BookFile value %s", dir);
    expect_uci(&p, cmd, "/glinski.bin: 1 entries, 1 positions, variant glinski\n");
    expect_uci(&p, "go wtime 1000 btime 1000", "info string book move d1f4 (weight 1 of 1)\nbestmove d1f4\n");
    snprintf(cmd, sizeof cmd, "info string no book for variant mccooey in %s\n", dir);
    expect_uci(&p, "setoption name UCI_Variant value mccooey", cmd);
    uci(&p, "position startpos");
    expect_search(&p, "go wtime 1000 btime 1000");
    unlink(file("glinski.bin"));
    ck_assert(pipe_send(&p, "quit", reply_ms()));
    struct proc_exit x = pipe_wait(&p, reply_ms());
    ck_assert_msg(x.exited && x.code == 0, "the engine did not exit cleanly");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Opening suites (books/suite.c). */

struct suite_line {
    char fen[1024], moves[1024];
    int score;
};

/* The suite's position lines after its '#' line: EPD fields, the ce score and the c0 moves. */
static int suite_lines(const char *text, struct suite_line *out, int max)
{
    int n = 0;
    ck_assert_msg(text[0] == '#', "no '#' line first: %.80s", text);
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        ck_assert_int_lt(n, max);
        struct suite_line *l = &out[n++];
        const char *id = strstr(line + 1, " id \""), *ce = strstr(line + 1, "; ce "), *c0 = strstr(line + 1, "; c0 \"");
        ck_assert_msg(id && ce && c0, "a bad line: %.200s", line + 1);
        snprintf(l->fen, sizeof l->fen, "%.*s", (int)(id - line - 1), line + 1);
        l->score = atoi(ce + 5);
        snprintf(l->moves, sizeof l->moves, "%.*s", (int)strcspn(c0 + 6, "\""), c0 + 6);
    }
    return n;
}

/* The executable's own score for the position: the last complete iteration of a fresh one-thread
 * search at the node count, as a GUI would get it. */
static int uci_score(struct proc *p, const char *fen, const char *go)
{
    char cmd[2048], last[1024] = "";
    snprintf(cmd, sizeof cmd, "ucinewgame\nposition fen %s\n%s", fen, go);
    ck_assert(pipe_send(p, cmd, reply_ms()));
    const char *line;
    while ((line = pipe_read_line(p, reply_ms())) && strncmp(line, "bestmove", 8))
        if (strstr(line, " score cp ") && !strstr(line, "bound"))
            snprintf(last, sizeof last, "%s", line);
    ck_assert_msg(line && last[0], "%s: no score", fen);
    return atoi(strstr(last, " score cp ") + 10);
}

/* Every position of the suite: reached from the start by its moves, the plies in range, neither over
 * nor in check, not the start, no two the same, and the score the executable gives it at the node
 * count is the one written, within the limit. */
static void expect_suite(const char *variant, const char *text, const struct suite_options *o, const char *uci_setup)
{
    static struct suite_line lines[64];
    int n = suite_lines(text, lines, 64);
    ck_assert_int_eq(n, o->count);
    struct game g;
    char err[512], fen[1024], go[64];
    uint64_t keys[64];
    test_game(&g, variant, NULL, false);
    uint64_t start = g.ops->position_key(g.pos);
    struct proc p;
    pipe_start(&p, NULL);
    uci(&p, uci_setup);
    snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)o->nodes);
    for (int i = 0; i < n; i++) {
        char *words[128], *save;
        int plies = 0;
        for (char *w = strtok_r(lines[i].moves, " ", &save); w && plies < 128; w = strtok_r(NULL, " ", &save))
            words[plies++] = w;
        ck_assert_msg(plies >= o->min_plies && plies <= o->max_plies, "line %d: %d plies", i + 1, plies);
        ck_assert_msg(game_set_position(&g, NULL, words, plies, err, sizeof err), "line %d: %s", i + 1, err);
        game_fen(&g, fen, sizeof fen);
        ck_assert_msg(!strncmp(fen, lines[i].fen, strlen(lines[i].fen)) && fen[strlen(lines[i].fen)] == ' ',
                      "line %d: the moves lead to %s, not %s", i + 1, fen, lines[i].fen);
        ck_assert(game_status(&g).outcome == GAME_ONGOING && !g.ops->position_in_check(g.pos));
        ck_assert(game_set_position(&g, lines[i].fen, NULL, 0, err, sizeof err));
        keys[i] = g.ops->position_key(g.pos);
        ck_assert(keys[i] != start);
        for (int j = 0; j < i; j++)
            ck_assert_msg(keys[j] != keys[i], "lines %d and %d are the same position", j + 1, i + 1);
        ck_assert_msg(abs(lines[i].score) <= o->max_score, "line %d: score %d", i + 1, lines[i].score);
        ck_assert_int_eq(uci_score(&p, lines[i].fen, go), lines[i].score);
    }
    ck_assert(pipe_send(&p, "quit", reply_ms()));
    pipe_wait(&p, reply_ms());
    proc_end(&p, 0, NULL, 0);
    game_free(&g);
}

START_TEST(test_openings_suite)
{
    const struct variant *v = test_variant("glinski");
    struct suite_options o = { .count = 12, .min_plies = 4, .max_plies = 8, .max_score = 50, .nodes = 2000, .seed = 3,
                               .hash_mb = 1 };
    struct text epd[3] = { { 0 } };
    struct suite_stats st;
    char err[512];
    for (int run = 0; run < 3; run++) {
        o.seed = run == 2 ? 4 : 3;
        ck_assert_msg(suite_generate(v, &o, &epd[run], &st, err, sizeof err), "%s", err);
        ck_assert_uint_eq(st.candidates, (size_t)o.count + st.ended + st.repeated + st.unbalanced);
    }
    /* The same options give the same text; another seed other positions. */
    ck_assert_str_eq(text_str(&epd[0]), text_str(&epd[1]));
    ck_assert_str_ne(text_str(&epd[0]), text_str(&epd[2]));
    ck_assert(strstr(text_str(&epd[0]), "|score| <= 50 cp at 2000 nodes (one thread, 1 MB hash), seed 3\n"));
    o.seed = 3;
    expect_suite("glinski", text_str(&epd[0]), &o, "setoption name Hash value 1");
    /* Scores beyond the limit are left out: a tighter limit keeps fewer of the same candidates. */
    o.max_score = 5;
    struct text tight = { 0 };
    ck_assert_msg(suite_generate(v, &o, &tight, &st, err, sizeof err), "%s", err);
    ck_assert_uint_gt(st.unbalanced, 0);
    expect_suite("glinski", text_str(&tight), &o, "setoption name Hash value 1");
    for (int run = 0; run < 3; run++)
        text_free(&epd[run]);
    text_free(&tight);
    o.min_plies = 9;
    ck_assert(!suite_generate(v, &o, &tight, &st, err, sizeof err));
    ck_assert(strstr(err, "bad options"));
}
END_TEST

/* Three players: every turn resolved by game_play, no army gone; the runner loads the suite. */
START_TEST(test_openings_suite_three_players)
{
    const struct variant *v = test_variant("wellisch");
    struct suite_options o = { .count = 6, .min_plies = 3, .max_plies = 6, .max_score = 50, .nodes = 1000, .seed = 1,
                               .hash_mb = 1 };
    struct text epd = { 0 };
    struct suite_stats st;
    struct openings loaded;
    char err[512];
    ck_assert_msg(suite_generate(v, &o, &epd, &st, err, sizeof err), "%s", err);
    expect_suite("wellisch", text_str(&epd), &o,
                 "setoption name UCI_Variant value wellisch\nsetoption name Hash value 1");
    write_bytes(file("three.epd"), text_str(&epd), epd.len);
    ck_assert_msg(openings_load(&loaded, file("three.epd"), v, err, sizeof err), "%s", err);
    ck_assert_int_eq(loaded.n, 6);
    for (int i = 0; i < loaded.n; i++) {
        struct game g;
        test_game(&g, "wellisch", loaded.fen[i], false);
        ck_assert_int_eq(g.neliminated, 0);
        ck_assert_uint_eq(game_armies(&g), 7);
        game_free(&g);
    }
    openings_free(&loaded);
    text_free(&epd);
}
END_TEST

START_TEST(test_cli_openings)
{
    const char *a = file("a.epd"), *b = file("b.epd"), *none = file("none.epd"), *tiny = file("tiny.ini");
    const char *args[] = { "openings", "--variant", "glinski", "--out", a, "--count", "5", "--nodes", "1000", "--seed",
                           "9", "--hash", "1", NULL };
    expect_cli(args, 0, "a.epd: 5 positions, variant glinski; from ", "");
    args[4] = b;
    expect_cli(args, 0, "b.epd: 5 positions", "");
    size_t alen, blen;
    unsigned char *adata = test_file_read(a, &alen), *bdata = test_file_read(b, &blen);
    ck_assert(alen > 0 && alen == blen && !memcmp(adata, bdata, alen));
    free(adata);
    free(bdata);
    /* Two kings on a hexagon of side 2 have too few positions for 40 distinct ones. */
    static const char kings[] = "[kings-only]\nboard = hexagon 2\nplayers = 2\npiece = king K W royal\n"
                                "start = K1/3/1k w - - 0 1\nstalemate = 1/2\n";
    write_bytes(tiny, kings, strlen(kings));
    expect_cli((const char *[]){ "openings", "--variant-file", tiny, "--variant", "kings-only", "--out", none, "--count",
                                 "40", "--nodes", "100", NULL },
               1, "", "distinct balanced positions in 4000 random games (40 wanted)");
    ck_assert(access(none, F_OK) != 0);
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", a, NULL }, 2, "",
               "openings needs --variant, --out and --nodes");
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", a, "--nodes", "9", "--min-plies", "6",
                                 "--max-plies", "5", NULL },
               2, "", "--min-plies 6 is more than --max-plies 5");
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", a, "--nodes", "9", "--depth", "3", NULL }, 2,
               "", "--depth does not go with this command");
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", a, "--nodes", "9", "--max-plies", "0", NULL },
               2, "", "--max-plies: a number from 1 to 100 is expected, not '0'");
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", a, "--nodes", "9", "extra", NULL }, 2, "",
               "unexpected 'extra'");
    expect_cli((const char *[]){ "openings", "--variant", "nosuch", "--out", a, "--nodes", "9", NULL }, 1, "",
               "unknown variant 'nosuch'");
    expect_cli((const char *[]){ "openings", "--variant", "glinski", "--out", file("no/dir.epd"), "--nodes", "1000",
                                 "--count", "1", NULL },
               1, "", "dir.epd: cannot write");
}
END_TEST

/* The files in the repository still fit the variants: every shipped suite loads for its variant as the
 * runner loads it, with distinct positions neither over nor in check, and every shipped book opens
 * and has moves at the start. */
START_TEST(test_shipped_files)
{
    static const char *const books[] = { "glinski", "mccooey", "full-house" };
    char err[512], path[256];
    int suites = 0;
    test_variant("glinski");
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        struct openings o;
        snprintf(path, sizeof path, "books/openings/%s.epd", v->name);
        if (access(path, F_OK))
            continue;
        suites++;
        ck_assert_msg(openings_load(&o, path, v, err, sizeof err), "%s", err);
        ck_assert_int_ge(o.n, 100);
        uint64_t *keys = malloc((size_t)o.n * sizeof *keys);
        struct game g;
        ck_assert(keys != NULL);
        test_game(&g, v->name, NULL, false);
        for (int k = 0; k < o.n; k++) {
            ck_assert(game_set_position(&g, o.fen[k], NULL, 0, err, sizeof err));
            keys[k] = g.ops->position_key(g.pos);
            ck_assert_msg(game_status(&g).outcome == GAME_ONGOING && !g.ops->position_in_check(g.pos), "%s:%d", path, k);
            for (int j = 0; j < k; j++)
                ck_assert_msg(keys[j] != keys[k], "%s: positions %d and %d are the same", path, j + 1, k + 1);
        }
        game_free(&g);
        free(keys);
        openings_free(&o);
    }
    ck_assert_int_ge(suites, 12);
    for (size_t i = 0; i < sizeof books / sizeof *books; i++) {
        struct book b;
        struct game g;
        struct book_move m[MAX_MOVES];
        snprintf(path, sizeof path, "books/%s.bin", books[i]);
        ck_assert_msg(book_open(&b, path, test_variant(books[i]), err, sizeof err), "%s", err);
        test_game(&g, books[i], NULL, false);
        ck_assert_int_ge(book_probe(&b, &g, m, NULL), 1);
        game_free(&g);
        book_close(&b);
    }
}
END_TEST

Suite *suite_books(void)
{
    Suite *s = suite_create("books");
    TCase *tc = tcase_create("format");
    tcase_add_unchecked_fixture(tc, dir_create, dir_remove);
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_lookup);
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_variant_mismatch);
    tcase_add_test(tc, test_damaged_files);
    tcase_add_test(tc, test_garbage_files);
    tcase_add_test(tc, test_probe_legal_only);
    tcase_add_test(tc, test_pick);
    suite_add_tcase(s, tc);
    tc = tcase_create("build");
    tcase_add_unchecked_fixture(tc, dir_create, dir_remove);
    tcase_set_timeout(tc, test_timeout(30));
    tcase_add_test(tc, test_build_from_records);
    tcase_add_test(tc, test_bad_records);
    tcase_add_test(tc, test_expand);
    tcase_add_test(tc, test_cli_build_show_merge);
    tcase_add_test(tc, test_cli_errors);
    tcase_add_test(tc, test_executable_dispatch);
    tcase_add_test(tc, test_openings_suite);
    tcase_add_test(tc, test_openings_suite_three_players);
    tcase_add_test(tc, test_cli_openings);
    tcase_add_test(tc, test_shipped_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("uci");
    tcase_add_unchecked_fixture(tc, dir_create, dir_remove);
    tcase_set_timeout(tc, test_timeout(30));
    tcase_add_test(tc, test_uci_own_book);
    tcase_add_test(tc, test_uci_shipped_books);
    suite_add_tcase(s, tc);
    return s;
}
