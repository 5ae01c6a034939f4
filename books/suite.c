/* Opening suites: distinct, balanced positions a few seeded random plies from the start. */
#include "suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/lines.h"
#include "../util/random.h"
#include "key_set.h"

enum { FEN_LEN = 1024, LINE_LEN = 4096, CANDIDATES_PER_POSITION = 100 };

/* Plays a random number of random legal plies from the start; their text goes to moves. False if
 * the game ended, an army left or the mover is in check on the way or at the end. */
static bool play_random(struct game *g, const struct suite_options *o, uint64_t *random, char *moves, size_t len,
                        char *err, size_t errlen)
{
    move_t list[MAX_MOVES];
    int plies = o->min_plies + (int)(random_next(random) % (uint64_t)(o->max_plies - o->min_plies + 1));
    size_t used = 0;
    game_set_position(g, NULL, NULL, 0, err, errlen);
    moves[0] = 0;
    for (int ply = 0; ply < plies; ply++) {
        int n = game_legal_moves(g, list);
        if (!n)
            return false;
        move_t m = list[random_next(random) % (uint64_t)n];
        char text[8];
        move_to_text(g->v, m, text);
        used += (size_t)snprintf(moves + used, len - used, "%s%s", ply ? " " : "", text);
        if (game_play(g, m, NULL))
            return false;
    }
    return game_status(g).outcome == GAME_ONGOING && !game_in_check(g);
}

/* The position's four EPD fields: the FEN without its clocks. */
static void epd_fields(const struct game *g, char *out, size_t len)
{
    char fen[FEN_LEN];
    game_fen(g, fen, sizeof fen);
    char *p = fen;
    for (int field = 0; field < 4 && p; field++)
        p = strchr(p + 1, ' ');
    if (p)
        *p = 0;
    snprintf(out, len, "%s", fen);
}

/* What a balanced candidate scores for each mover: 0, or with different armies (unequal by design,
 * nd-wellisch-4p) the start's own score with that army to move. False with err if the search fails. */
static bool start_scores(struct search_pool *pool, struct game *g, const struct suite_options *o,
                         int base[MAX_PLAYERS], char *err, size_t errlen)
{
    const struct variant *v = g->v;
    struct lines lines;
    memset(base, 0, MAX_PLAYERS * sizeof *base);
    for (int p = 0; p < v->nplayers && v->narmies > 1; p++) {
        char fen[FEN_LEN];
        snprintf(fen, sizeof fen, "%.*s %c", (int)strcspn(v->start_fen, " "), v->start_fen, v->colour_letter[p]);
        if (!game_set_position(g, fen, NULL, 0, err, errlen))
            return false;
        if (!lines_search(pool, g, 1, 0, o->nodes, &lines) || !lines.n) {
            snprintf(err, errlen, "cannot start the search (out of memory or threads)");
            return false;
        }
        base[p] = lines.score[0];
    }
    return true;
}

/* Searches the candidate as the match runner will set it up (no clocks, no history); 1 if it is
 * kept (its score in *score), 0 if not, -1 with err if memory or threads are short. */
static int judge(struct search_pool *pool, struct game *g, struct key_set *seen, const struct suite_options *o,
                 const int base[MAX_PLAYERS], const char *epd, struct suite_stats *st, int *score, char *err,
                 size_t errlen)
{
    struct lines lines;
    game_set_position(g, epd, NULL, 0, err, errlen);
    int added = key_set_add(seen, game_key(g));
    if (added < 0)
        snprintf(err, errlen, "out of memory");
    st->repeated += !added;
    if (added <= 0)
        return added;
    if (!lines_search(pool, g, 1, 0, o->nodes, &lines)) {
        snprintf(err, errlen, "cannot start the search (out of memory or threads)");
        return -1;
    }
    *score = lines.score[0];
    bool balanced = lines.n && abs(*score - base[game_side(g)]) <= o->max_score;
    st->unbalanced += !balanced;
    return balanced;
}

bool suite_generate(const struct variant *v, const struct suite_options *o, struct text *epd, struct suite_stats *st,
                    char *err, size_t errlen)
{
    struct game g = { 0 };
    struct search_pool *pool = NULL;
    struct key_set seen = { 0 };
    char moves[LINE_LEN], fen[FEN_LEN];
    uint64_t random = o->seed;
    int kept = 0, base[MAX_PLAYERS];
    *st = (struct suite_stats){ 0 };
    if (o->count < 1 || o->min_plies < 1 || o->min_plies > o->max_plies || o->max_score < 0 || !o->nodes
        || !o->hash_mb) {
        snprintf(err, errlen, "openings: bad options (count from 1, plies from 1 with min <= max, max-score from 0, "
                 "a node limit, hash from 1 MB)");
        return false;
    }
    if (!(pool = pool_new())) {
        snprintf(err, errlen, "cannot set up the search");
        return false;
    }
    bool ok = game_init(&g, v, false, err, errlen);
    if (ok && !(ok = pool_configure(pool, 1, o->hash_mb)))
        snprintf(err, errlen, "out of memory");
    /* The start position is no opening, however few plies bring it back. */
    if (ok && !(ok = key_set_add(&seen, game_key(&g)) >= 0))
        snprintf(err, errlen, "out of memory");
    ok = ok && start_scores(pool, &g, o, base, err, errlen);
    if (ok)
        text_printf(epd, "# %s: %d positions %d to %d random plies from the start, |score%s| <= %d cp at %llu nodes "
                    "(one thread, %zu MB hash), seed %llu\n", v->name, o->count, o->min_plies, o->max_plies,
                    v->narmies > 1 ? " - the start's for the mover" : "", o->max_score, (unsigned long long)o->nodes,
                    o->hash_mb, (unsigned long long)o->seed);
    size_t limit = (size_t)o->count * CANDIDATES_PER_POSITION;
    while (ok && kept < o->count && st->candidates < limit) {
        st->candidates++;
        if (!play_random(&g, o, &random, moves, sizeof moves, err, errlen)) {
            st->ended++;
            continue;
        }
        int score = 0;
        epd_fields(&g, fen, sizeof fen);
        int verdict = judge(pool, &g, &seen, o, base, fen, st, &score, err, errlen);
        ok = verdict >= 0;
        if (verdict > 0)
            text_printf(epd, "%s id \"%s-%d\"; ce %d; acn %llu; c0 \"%s\";\n", fen, v->name, ++kept, score,
                        (unsigned long long)o->nodes, moves);
    }
    if (ok && epd->failed) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    if (ok && kept < o->count) {
        snprintf(err, errlen, "only %d distinct balanced positions in %zu random games (%d wanted)", kept,
                 st->candidates, o->count);
        ok = false;
    }
    key_set_free(&seen);
    pool_free(pool);
    game_free(&g);
    return ok;
}
