/* The match runner's game record files (games/pgn.c, docs/match.md) read back one game at a time:
 * tag pairs, then movetext up to the result that ends every game. */
#ifndef RECORDS_H
#define RECORDS_H

#include <stdbool.h>
#include <stddef.h>

struct record_move {
    char text[16];
};

/* A move of a variation (RAV, "(...)"): it follows the variation move `parent`, or where parent is -1
 * the main line's position after `ply` moves. */
struct record_variation {
    char text[16];
    int parent, ply;
};

enum { RECORD_NESTING = 64 };           /* variations within variations, at most */

enum { RECORD_TAGS = 32 };

struct record_tag {
    const char *name, *value;
};

struct record_game {
    int line;                           /* where the game starts in the file */
    const char *variant, *fen, *result; /* tag values; NULL when the tag is absent */
    int ntags;                          /* every tag, the first RECORD_TAGS of them */
    struct record_tag tag[RECORD_TAGS];
    int nmoves;
    const struct record_move *moves;    /* the main line */
    int nvariations;
    const struct record_variation *variations;  /* in the record's order, each after the move it follows */
};

struct records {
    const char *path;
    char *text, *at, *end;              /* the whole file; tag values are unescaped in place */
    int line;
    struct record_move *moves;
    int cap;
    struct record_variation *variations;
    int variations_cap;
};

bool records_open(struct records *r, const char *path, char *err, size_t errlen);
/* The same from text in memory (copied); origin names it in messages. */
bool records_open_text(struct records *r, const char *text, size_t len, const char *origin, char *err, size_t errlen);
/* 1: the next game is in *g (valid until the next call), 0: no games left, -1: an error in err. */
int records_next(struct records *r, struct record_game *g, char *err, size_t errlen);
void records_close(struct records *r);
/* The value of the game's tag of that name, or NULL. */
const char *records_tag(const struct record_game *g, const char *name);

#endif
