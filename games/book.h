/* Opening books: a file of entries sorted by Zobrist key, each a move with a weight and a learn
 * field, for one variant (docs/books.md). A book is read whole and checked when it is opened, then
 * searched in memory; a move is only ever returned if it is legal in the position. */
#ifndef BOOK_H
#define BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"

enum { BOOK_HEADER_SIZE = 64, BOOK_ENTRY_SIZE = 20, BOOK_VERSION = 1 };

struct book_entry {
    uint64_t key;
    unsigned char from, to;     /* cells, in the board's cell order (docs/geometry.md) */
    char suffix;                /* promotion or fission letter (lower case), or 0 */
    uint32_t weight, learn;
};

/* A growing list of entries for the builders; duplicates are summed by book_entries_combine. */
struct book_entries {
    struct book_entry *e;
    size_t n, cap;
};

struct book {
    const struct variant *v;
    struct book_entry *e;       /* sorted by key, then move */
    size_t n, npositions;
};

/* A book move that is legal in the probed position. */
struct book_move {
    move_t move;
    uint32_t weight, learn;
};

enum book_variety { BOOK_WEIGHTED, BOOK_BEST };

/* Reads and checks the whole file for the variant (NULL: the registered variant the book names);
 * on failure err holds one line and b is left empty. */
bool book_open(struct book *b, const char *path, const struct variant *v, char *err, size_t errlen);
/* The same from the book's bytes in memory; origin names them in messages. */
bool book_open_bytes(struct book *b, const unsigned char *bytes, size_t size, const char *origin,
                     const struct variant *v, char *err, size_t errlen);
void book_close(struct book *b);
/* The index of the key's first entry; *count entries follow (0 if the key is not in the book). */
size_t book_find(const struct book *b, uint64_t key, size_t *count);
/* The book's moves for the game's position that are legal there, in book order (out holds
 * MAX_MOVES); returns how many. *skipped (may be NULL) counts the key's entries that are not legal
 * moves. A game of another variant has no book moves. */
int book_probe(const struct book *b, struct game *g, struct book_move *out, int *skipped);
/* The index of the move to play, or -1 if every weight is 0: the heaviest (the first of equals), or
 * one drawn with probability weight / total from the random number. */
int book_pick(const struct book_move *m, int n, enum book_variety variety, uint64_t random);

/* The entry's move in the variant's move text; out needs 8 bytes. */
void book_entry_text(const struct variant *v, const struct book_entry *e, char *out);
/* The entry's move fields for a legal move of the variant. */
void book_entry_set_move(const struct variant *v, move_t m, struct book_entry *e);

bool book_entries_add(struct book_entries *l, const struct book_entry *e);
/* Sorts by key and move and sums the weights and learn fields of equal moves (saturating). */
void book_entries_combine(struct book_entries *l);
void book_entries_free(struct book_entries *l);
/* Combines the entries and writes the book through a temporary file renamed into place, so a failed
 * write never leaves a damaged book behind. */
bool book_write(const char *path, const struct variant *v, struct book_entries *l, char *err, size_t errlen);

#endif
