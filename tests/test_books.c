/* Opening books (books/, docs/books.md): the file format byte by byte, round trips, lookups, every
 * kind of damaged file, and only legal moves from a probe. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "../books/book.h"
#include "tests.h"

#define PROMOTION "5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1"

/* ------------------------------------------------------------------------------------------- */
/* Files in a directory of their own under /tmp, made and removed by an unchecked fixture. */

static char dir[64];

static void dir_create(void)
{
    snprintf(dir, sizeof dir, "/tmp/sennight-books-XXXXXX");
    if (!mkdtemp(dir))
        dir[0] = 0;
}

static void dir_remove(void)
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
    rmdir(dir);
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

/* The whole file; *len gets its size. */
static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    unsigned char *data = malloc(1 << 20);
    ck_assert(data != NULL);
    *len = fread(data, 1, 1 << 20, f);
    fclose(f);
    return data;
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
    unsigned char *got = read_bytes(file("layout.book"), &len);
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
    unsigned char *data = read_bytes(file("g.book"), &len);
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
    unsigned char *base = read_bytes(file("base.book"), &len);
    ck_assert_uint_eq(len, BOOK_HEADER_SIZE + 3 * BOOK_ENTRY_SIZE);
    /* Every truncation, down to nothing. */
    for (size_t cut = 0; cut < len; cut++) {
        write_bytes(file("cut.book"), base, cut);
        expect_refused(file("cut.book"), v, cut < BOOK_HEADER_SIZE ? "shorter than a book header" : "truncated");
    }
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
    unsigned char *head = read_bytes(file("head.book"), &len), data[BOOK_HEADER_SIZE + 16 * BOOK_ENTRY_SIZE];
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
    return s;
}
