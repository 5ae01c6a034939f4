/* Opening books: the file format read and checked whole, lookups, picks, and writing. */
#include "book.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../util/file.h"
#include "../util/le.h"

static const char magic[8] = { 'S', 'E', 'N', 'N', 'B', 'O', 'O', 'K' };

static int entry_compare(const void *a, const void *b)
{
    const struct book_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->from != y->from)
        return x->from - y->from;
    if (x->to != y->to)
        return x->to - y->to;
    return (unsigned char)x->suffix - (unsigned char)y->suffix;
}

void book_entry_text(const struct variant *v, const struct book_entry *e, char *out)
{
    snprintf(out, 8, "%s%s%.1s", v->geo.name[e->from], v->geo.name[e->to], &e->suffix);
}

void book_entry_set_move(const struct variant *v, move_t m, struct book_entry *e)
{
    int suffix = move_promo(m) >= 0 ? move_promo(m) : move_fission(m);
    e->from = (unsigned char)move_from(m);
    e->to = (unsigned char)move_to(m);
    e->suffix = suffix >= 0 ? (char)tolower((unsigned char)v->piece[suffix].letter) : 0;
}

static bool suffix_valid(const struct variant *v, char suffix)
{
    for (int t = 0; t < v->ntypes && suffix; t++)
        if (suffix == tolower((unsigned char)v->piece[t].letter))
            return true;
    return !suffix;
}

/* The header's variant: the given one, or the registered one it names; err says why it does not fit. */
static const struct variant *header_variant(const unsigned char *h, const char *path, const struct variant *v,
                                            char *err, size_t errlen)
{
    char name[NAME_LEN + 1] = "";
    const unsigned char *field = h + 32;
    size_t len = strnlen((const char *)field, NAME_LEN);
    uint64_t fingerprint = le_get(h + 16, 8);
    /* A readable name padded with zeros: the name goes into one-line messages. */
    bool good = len > 0;
    for (size_t i = 0; i < NAME_LEN; i++)
        good &= i < len ? isgraph(field[i]) != 0 : !field[i];
    if (!good) {
        snprintf(err, errlen, "%s: damaged header (bad variant name)", path);
        return NULL;
    }
    memcpy(name, field, len);
    if (!v)
        v = registry_find(name);
    if (!v)
        snprintf(err, errlen, "%s: the book is for variant '%s', which is not loaded", path, name);
    else if (strcmp(v->name, name))
        snprintf(err, errlen, "%s: the book is for variant '%s', not '%s'", path, name, v->name);
    else if (v->fingerprint != fingerprint)
        snprintf(err, errlen, "%s: the book was built for another definition of '%s' (fingerprint %016llx, "
                 "this one %016llx)", path, name, (unsigned long long)fingerprint, (unsigned long long)v->fingerprint);
    else
        return v;
    return NULL;
}

static bool check_header(const unsigned char *h, size_t size, const char *path, char *err, size_t errlen)
{
    uint64_t count = le_get(h + 24, 8);
    size_t bytes = size - BOOK_HEADER_SIZE;
    if (memcmp(h, magic, sizeof magic))
        snprintf(err, errlen, "%s: not a Sennight book", path);
    else if (le_get(h + 8, 4) != BOOK_VERSION)
        snprintf(err, errlen, "%s: book format version %llu; this engine reads version %d", path,
                 (unsigned long long)le_get(h + 8, 4), BOOK_VERSION);
    else if (le_get(h + 12, 4) != BOOK_ENTRY_SIZE)
        snprintf(err, errlen, "%s: damaged header (entry size %llu, expected %d)", path,
                 (unsigned long long)le_get(h + 12, 4), BOOK_ENTRY_SIZE);
    else if (count != (uint64_t)bytes / BOOK_ENTRY_SIZE || bytes % BOOK_ENTRY_SIZE)
        snprintf(err, errlen, "%s: truncated or damaged: the header says %llu entries, the file holds %lld bytes of "
                 "entries", path, (unsigned long long)count, (unsigned long long)bytes);
    else
        return true;
    return false;
}

/* Decodes and checks entry i: its cells and letter belong to the variant and it follows entry i - 1. */
static bool read_entry(struct book *b, size_t i, const unsigned char *p, const char *path, char *err, size_t errlen)
{
    struct book_entry *e = &b->e[i];
    *e = (struct book_entry){ .key = le_get(p, 8), .from = p[8], .to = p[9], .suffix = (char)p[10],
                              .weight = (uint32_t)le_get(p + 12, 4), .learn = (uint32_t)le_get(p + 16, 4) };
    const char *why = NULL;
    if (e->from >= b->v->geo.ncells || e->to >= b->v->geo.ncells)
        why = "has a cell outside the board";
    else if (!suffix_valid(b->v, e->suffix) || p[11])
        why = "has a bad move";
    else if (i && entry_compare(e - 1, e) >= 0)
        why = "is out of order (entries must be sorted by key and move, each move once)";
    if (why) {
        snprintf(err, errlen, "%s: damaged: entry %zu %s", path, i, why);
        return false;
    }
    b->npositions += !i || e[-1].key != e->key;
    return true;
}

static bool read_book(struct book *b, const unsigned char *bytes, size_t size, const char *path,
                      const struct variant *v, char *err, size_t errlen)
{
    if (size < BOOK_HEADER_SIZE) {
        snprintf(err, errlen, "%s: truncated: %zu bytes, shorter than a book header", path, size);
        return false;
    }
    if (!check_header(bytes, size, path, err, errlen) || !(b->v = header_variant(bytes, path, v, err, errlen)))
        return false;
    b->n = (size_t)le_get(bytes + 24, 8);
    if (b->n && !(b->e = malloc(b->n * sizeof *b->e))) {
        snprintf(err, errlen, "%s: out of memory for %zu entries", path, b->n);
        return false;
    }
    for (size_t i = 0; i < b->n; i++)
        if (!read_entry(b, i, bytes + BOOK_HEADER_SIZE + i * BOOK_ENTRY_SIZE, path, err, errlen))
            return false;
    return true;
}

bool book_open_bytes(struct book *b, const unsigned char *bytes, size_t size, const char *origin,
                     const struct variant *v, char *err, size_t errlen)
{
    *b = (struct book){ 0 };
    bool ok = read_book(b, bytes, size, origin, v, err, errlen);
    if (!ok)
        book_close(b);
    return ok;
}

bool book_open(struct book *b, const char *path, const struct variant *v, char *err, size_t errlen)
{
    *b = (struct book){ 0 };
    size_t len;
    unsigned char *bytes = (unsigned char *)file_read(path, SIZE_MAX, &len, err, errlen);
    if (!bytes)
        return false;
    bool ok = book_open_bytes(b, bytes, len, path, v, err, errlen);
    free(bytes);
    return ok;
}

void book_close(struct book *b)
{
    free(b->e);
    *b = (struct book){ 0 };
}

size_t book_find(const struct book *b, uint64_t key, size_t *count)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->e[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < b->n && b->e[end].key == key)
        end++;
    *count = end - lo;
    return lo;
}

int book_probe(const struct book *b, struct game *g, struct book_move *out, int *skipped)
{
    size_t count, first = book_find(b, game_key(g), &count);
    move_t legal[MAX_MOVES];
    char text[MAX_MOVES][8], want[8];
    int n = 0, nlegal = count && g->v == b->v ? game_legal_moves(g, legal) : 0;
    for (int k = 0; k < nlegal; k++)
        move_to_text(g->v, legal[k], text[k]);
    /* A key collision or a damaged book must never make the engine play an illegal move. */
    for (size_t i = first; i < first + count; i++) {
        book_entry_text(b->v, &b->e[i], want);
        for (int k = 0; k < nlegal; k++)
            if (!strcmp(text[k], want)) {
                out[n++] = (struct book_move){ legal[k], b->e[i].weight, b->e[i].learn };
                break;
            }
    }
    if (skipped)
        *skipped = (int)count - n;
    return n;
}

int book_pick(const struct book_move *m, int n, enum book_variety variety, uint64_t random)
{
    uint64_t total = 0;
    int best = -1;
    for (int i = 0; i < n; i++) {
        total += m[i].weight;
        if (m[i].weight && (best < 0 || m[i].weight > m[best].weight))
            best = i;
    }
    if (variety == BOOK_BEST || best < 0)
        return best;
    uint64_t r = random % total;
    for (int i = 0;; i++) {
        if (r < m[i].weight)
            return i;
        r -= m[i].weight;
    }
}

bool book_entries_add(struct book_entries *l, const struct book_entry *e)
{
    if (l->n == l->cap) {
        /* Combining first keeps the list at the size of the book rather than of every move seen. */
        book_entries_combine(l);
        if (2 * l->n >= l->cap) {
            size_t cap = l->cap ? 2 * l->cap : 4096;
            struct book_entry *grown = realloc(l->e, cap * sizeof *grown);
            if (!grown)
                return false;
            l->e = grown;
            l->cap = cap;
        }
    }
    l->e[l->n++] = *e;
    return true;
}

static uint32_t add_saturating(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

void book_entries_combine(struct book_entries *l)
{
    if (!l->n)
        return;
    qsort(l->e, l->n, sizeof *l->e, entry_compare);
    size_t out = 0;
    for (size_t i = 1; i < l->n; i++) {
        struct book_entry *last = &l->e[out];
        if (entry_compare(last, &l->e[i])) {
            l->e[++out] = l->e[i];
        } else {
            last->weight = add_saturating(last->weight, l->e[i].weight);
            last->learn = add_saturating(last->learn, l->e[i].learn);
        }
    }
    l->n = out + 1;
}

void book_entries_free(struct book_entries *l)
{
    free(l->e);
    *l = (struct book_entries){ 0 };
}

/* The variant and entries the writer needs, through file_replace's one context pointer. */
struct book_contents {
    const struct variant *v;
    const struct book_entries *l;
};

static bool write_contents(FILE *f, const void *ctx)
{
    const struct variant *v = ((const struct book_contents *)ctx)->v;
    const struct book_entries *l = ((const struct book_contents *)ctx)->l;
    unsigned char h[BOOK_HEADER_SIZE] = { 0 }, p[BOOK_ENTRY_SIZE];
    memcpy(h, magic, sizeof magic);
    le_put(h + 8, BOOK_VERSION, 4);
    le_put(h + 12, BOOK_ENTRY_SIZE, 4);
    le_put(h + 16, v->fingerprint, 8);
    le_put(h + 24, l->n, 8);
    memcpy(h + 32, v->name, strlen(v->name));
    bool ok = fwrite(h, 1, sizeof h, f) == sizeof h;
    for (size_t i = 0; ok && i < l->n; i++) {
        const struct book_entry *e = &l->e[i];
        le_put(p, e->key, 8);
        p[8] = e->from;
        p[9] = e->to;
        p[10] = (unsigned char)e->suffix;
        p[11] = 0;
        le_put(p + 12, e->weight, 4);
        le_put(p + 16, e->learn, 4);
        ok = fwrite(p, 1, sizeof p, f) == sizeof p;
    }
    return ok;
}

bool book_write(const char *path, const struct variant *v, struct book_entries *l, char *err, size_t errlen)
{
    book_entries_combine(l);
    return file_replace(path, write_contents, &(struct book_contents){ v, l }, err, errlen);
}
