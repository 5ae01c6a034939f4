/* Book entries from a search-driven expansion of the tree: breadth first, one thread, a cleared
 * table before every search, so the book depends only on the options and never on timing. */
#include <stdlib.h>
#include <string.h>

#include "../games/lines.h"
#include "build.h"
#include "key_set.h"

enum { FEN_LEN = 1024 };

/* The positions of one ply, as FENs. */
struct level {
    char **fen;
    size_t n, cap;
};

static bool level_add(struct level *l, const char *fen)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **grown = realloc(l->fen, cap * sizeof *grown);
        if (!grown)
            return false;
        l->fen = grown;
        l->cap = cap;
    }
    return (l->fen[l->n] = strdup(fen)) && ++l->n;
}

static void level_clear(struct level *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->fen[i]);
    l->n = 0;
}

/* Searches one position of the level: its entries, and the positions they lead to for the next. */
static bool expand_position(struct book_entries *l, struct search_pool *pool, struct game *g, const char *fen,
                            const struct expand_options *o, struct level *next, struct expand_stats *st, char *err,
                            size_t errlen)
{
    struct lines lines;
    char child[FEN_LEN];
    uint64_t key = game_key(g);
    if (!lines_search(pool, g, o->width, o->depth, o->nodes, &lines)) {
        snprintf(err, errlen, "cannot start the search (out of memory or threads)");
        return false;
    }
    st->positions++;
    st->unresolved += !lines.n;
    for (int k = 0; k < lines.n && (int64_t)lines.score[0] - lines.score[k] <= o->margin; k++) {
        struct book_entry e = { .key = key, .weight = (uint32_t)(o->margin + 1 - (lines.score[0] - lines.score[k])) };
        book_entry_set_move(g->v, lines.move[k], &e);
        if (!book_entries_add(l, &e)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        if (!next)
            continue;
        game_set_position(g, fen, NULL, 0, err, errlen);
        game_play(g, lines.move[k], NULL);
        game_fen(g, child, sizeof child);
        if (!level_add(next, child)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    return true;
}

bool book_expand(struct book_entries *l, const struct variant *v, const struct expand_options *o, FILE *progress,
                 struct expand_stats *st, char *err, size_t errlen)
{
    struct game g = { 0 };
    struct search_pool *pool = NULL;
    struct level level = { 0 }, next = { 0 };
    struct key_set seen = { 0 };
    *st = (struct expand_stats){ 0 };
    if (o->width < 1 || o->width > MAX_MULTIPV || o->plies < 1 || o->margin < 0 || (!o->depth && !o->nodes)
        || !o->hash_mb) {
        snprintf(err, errlen, "expansion: bad options (width 1..%d, plies from 1, margin from 0, a depth or node limit, "
                 "hash from 1 MB)", MAX_MULTIPV);
        return false;
    }
    if (!(pool = pool_new())) {
        snprintf(err, errlen, "cannot set up the search");
        return false;
    }
    bool ok = game_init(&g, v, false, err, errlen) && game_set_position(&g, o->fen, NULL, 0, err, errlen);
    if (ok && !(ok = pool_configure(pool, 1, o->hash_mb) && level_add(&level, o->fen ? o->fen : v->start_fen)))
        snprintf(err, errlen, "out of memory");
    for (int ply = 0; ok && ply < o->plies && level.n; ply++) {
        size_t searched = st->positions, entries = l->n;
        level_clear(&next);
        for (size_t i = 0; ok && i < level.n; i++) {
            /* Every FEN of the level came from a legal position. */
            game_set_position(&g, level.fen[i], NULL, 0, err, errlen);
            int added = key_set_add(&seen, game_key(&g));
            if (added < 0)
                snprintf(err, errlen, "out of memory");
            ok = added >= 0;
            if (added > 0)
                ok = expand_position(l, pool, &g, level.fen[i], o, ply + 1 < o->plies ? &next : NULL, st, err, errlen);
        }
        if (ok && progress)
            fprintf(progress, "ply %d: %zu positions searched, %zu moves kept\n", ply + 1, st->positions - searched,
                    l->n - entries);
        struct level done = level;
        level = next;
        next = done;
    }
    level_clear(&level);
    level_clear(&next);
    free(level.fen);
    free(next.fen);
    key_set_free(&seen);
    pool_free(pool);
    game_free(&g);
    return ok;
}
