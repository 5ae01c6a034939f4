/* The game in and out as text: a FEN or a PGN record loaded into the session, the game exported as
 * PGN. */
#include "game_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../client/tc.h"
#include "../games/pgn.h"
#include "../games/records.h"
#include "../rules/fen_variant.h"
#include "../rules/registry.h"
#include "record.h"
#include "review.h"
#include "session.h"
#include "session_json.h"
#include "tree_record.h"

void game_io_fen(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    const char *fen;
    char err[512];
    struct record rec;
    char boards[256];
    if (json_unpack((json_t *)body, "{s:s}", "fen", &fen)) {
        reply_error(r, 400, "{\"fen\": FEN} expected");
        return;
    }
    /* Another variant's starting position (McCooey's given to Glinski, on the same board) is a game of it. */
    const struct variant *v = fen_start_variant(s->rec.v, fen);
    if (!record_load(&rec, v ? v : s->rec.v, fen, NULL, 0, err, sizeof err)) {
        if (fen_fitting_variants(s->rec.v, fen, boards, sizeof boards))
            reply_error(r, 400, "not a position of %s (%d cells): this FEN is one of %s", s->rec.v->name,
                        s->rec.v->geo.ncells, boards);
        else
            reply_error(r, 400, "%s", err);
        return;
    }
    char notice[160] = "";
    if (v && v != s->rec.v)
        snprintf(notice, sizeof notice, "the starting position of %s: loaded as a game of %s", v->name, v->name);
    session_replace_game(s, &rec);
    json_t *state = session_json_state(s);
    if (notice[0])
        json_object_set_new(state, "notice", json_string(notice));
    reply_json(r, 200, state);
}

static const char *seat_name(const struct session *s, int k)
{
    return s->seat[k].engine ? engine_list_get(s->seat[k].e.id)->name : "Human";
}

/* A main-line move's marks from the game's review (ctx; NULL: none), for the PGN export. */
static bool review_marks(void *review, int ply, const char **nag, char *comment, size_t len)
{
    return review && review_annotation(review, ply, nag, comment, len);
}

/* The game as `sennight match -pgnout` writes it. */
static void pgn_get(struct session *s, struct reply *r)
{
    struct game g = { 0 };
    struct game_record rec = { .culprit = -1, .den = 1, .narmies = s->nseats, .term = TERM_ABANDONED };
    char err[256], date[16];
    struct text tc = { 0 };
    if (!game_init(&g, s->rec.v, false, err, sizeof err) || !record_position(&s->rec, &g, 0)) {
        game_free(&g);
        reply_error(r, 503, "%s", err);
        return;
    }
    snprintf(rec.fen, sizeof rec.fen, "%s", s->rec.start);
    for (int c = 0; c < rec.narmies; c++)
        rec.left[c] = game_armies(&g) >> c & 1 ? -1 : 0;
    if (!tree_record_write(&s->rec.tree, s->rec.start, &g, &rec, review_marks, s->review)) {
        game_record_free(&rec);
        game_free(&g);
        reply_error(r, 503, "out of memory");
        return;
    }
    struct game_status st = game_status(&g);
    if (s->forfeit >= 0) {
        game_record_fault(&rec, TERM_TIME, s->forfeit, game_armies(&g));
        snprintf(rec.reason, sizeof rec.reason, "%s loses on time", play_colour_name(s->rec.v, s->forfeit));
    } else if (flow_over(&s->flow)) {
        flow_record(&s->flow, s->rec.v, &rec, game_armies(&g));
    } else if (st.outcome != GAME_ONGOING) {
        game_record_end(s->rec.v, &rec, st, game_side(&g), game_armies(&g));
    }
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", localtime_r(&now, &tm));
    tc_format(&s->limits, &tc);
    struct pgn_tags tags = { .v = s->rec.v, .event = "Sennight GUI", .date = date, .round = 1,
                             .time_control = tc.len ? text_str(&tc) : "-" };
    for (int k = 0; k < s->nseats; k++)
        tags.player[k] = seat_name(s, k);
    size_t size;
    FILE *f = open_memstream(&r->text, &size);
    if (f) {
        pgn_write(f, &tags, &rec);
        fclose(f);
    }
    r->status = f ? 200 : 503;
    text_free(&tc);
    game_record_free(&rec);
    game_free(&g);
}

/* A record of one game replaces the session's game; the variant may change but not the number of armies. */
static void pgn_post(struct session *s, const char *text, size_t len, struct reply *r)
{
    struct records records;
    struct record_game game;
    struct record rec;
    char err[512];
    if (!records_open_text(&records, text ? text : "", len, "record", err, sizeof err)) {
        reply_error(r, 400, "%s", err);
        return;
    }
    int found = records_next(&records, &game, err, sizeof err);
    const struct variant *v = found > 0 && game.variant ? registry_find(game.variant) : found > 0 ? s->rec.v : NULL;
    if (found <= 0)
        reply_error(r, 400, "%s", found < 0 ? err : "no game in the record");
    else if (!v)
        reply_error(r, 404, "unknown variant '%s'", game.variant);
    else if (v->nplayers != s->nseats)
        reply_error(r, 400, "the record's variant has %d armies, the session %d", v->nplayers, s->nseats);
    else {
        /* On the heap: a record of up to 2 MB may hold hundreds of thousands of moves. */
        const char **moves = malloc(((size_t)game.nmoves + 1) * sizeof *moves);
        for (int i = 0; moves && i < game.nmoves; i++)
            moves[i] = game.moves[i].text;
        if (!moves) {
            reply_error(r, 503, "out of memory");
        } else if (!record_load(&rec, v, game.fen, moves, game.nmoves, err, sizeof err)) {
            reply_error(r, 400, "%s", err);
        } else if (!tree_record_read(&rec.tree, v, rec.start, &game, err, sizeof err)) {
            reply_error(r, 400, "%s", err);
            record_free(&rec);
        } else {
            session_replace_game(s, &rec);
            reply_json(r, 200, session_json_state(s));
        }
        free(moves);
    }
    records_close(&records);
}

void game_io_pgn(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body;
    if (text)
        pgn_post(s, text, len, r);
    else
        pgn_get(s, r);
}
