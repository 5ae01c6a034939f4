/* The session as the page reads it. */
#include "session_json.h"

#include <stdio.h>
#include <string.h>

#include "../rules/setup.h"
#include "material.h"
#include "review.h"
#include "session.h"
#include "tree.h"

/* By enum engine_status (session.h). */
static const char *const status_names[] = { "ok", "thinking", "crashed", "hung", "failed" };

static json_t *cells_json(const struct variant *v, const bool *mark)
{
    json_t *list = json_array();
    for (int c = 0; c < v->geo.ncells; c++)
        if (mark[c])
            json_array_append_new(list, json_string(v->geo.name[c]));
    return list;
}

static json_t *letter_json(const struct variant *v, int army)
{
    char letter[2] = { v->colour_letter[army], 0 };
    return json_string(letter);
}

/* Each army's points out of one: {"w": 1, "b": 0}. */
static json_t *points_json(const struct variant *v, const int *score, int den)
{
    json_t *points = json_object();
    for (int p = 0; p < v->nplayers; p++) {
        char letter[2] = { v->colour_letter[p], 0 };
        json_object_set_new(points, letter, json_real((double)score[p] / den));
    }
    return points;
}

/* The result: the engine's line, why the game ended and each army's points (none for an abort). */
static json_t *result_json(struct session *s)
{
    static const char *const reasons[] = { "", "checkmate", "stalemate", "repetition", "100-ply rule", "last army" };
    const struct variant *v = s->rec.v;
    char text[256];
    if (s->forfeit >= 0) {
        /* The armies still on the board share the point the loser forfeits. */
        unsigned armies = game_armies(&s->rec.game) & ~(1u << s->forfeit);
        snprintf(text, sizeof text, "time forfeit: %c loses on time", v->colour_letter[s->forfeit]);
        return json_pack("{s:s, s:s, s:o}", "text", text, "reason", "time", "points", flow_shared_points(v, armies));
    }
    if (flow_over(&s->flow))
        return flow_result_json(&s->flow, v, game_armies(&s->rec.game));
    if (s->aborted)
        return json_pack("{s:s, s:s, s:n}", "text", "aborted", "reason", "aborted", "points");
    struct game_status st = game_status(&s->rec.game);
    if (st.outcome == GAME_ONGOING)
        return json_null();
    game_status_text(&s->rec.game, st, text, sizeof text);
    return json_pack("{s:s, s:s, s:o}", "text", text, "reason", reasons[st.outcome], "points",
                     points_json(v, st.score, st.den));
}

json_t *session_json_engine(const struct engine *e, int seat)
{
    return json_pack("{s:o, s:s, s:s}", "seat", seat < 0 ? json_null() : json_integer(seat), "status",
                     status_names[e->status], "message", e->message);
}

static json_t *seats_json(const struct session *s)
{
    json_t *list = json_array();
    for (int k = 0; k < s->nseats; k++) {
        const struct seat *t = &s->seat[k];
        json_array_append_new(list, json_pack("{s:o, s:s, s:o, s:o, s:s, s:s, s:b}", "army", letter_json(s->rec.v, k),
                                              "kind", t->engine ? "engine" : "human", "engine",
                                              t->engine ? json_integer(t->e.id) : json_null(), "elo",
                                              t->engine && t->e.elo ? json_integer(t->e.elo) : json_null(), "status",
                                              t->engine ? status_names[t->e.status] : "ok", "message",
                                              t->engine ? t->e.message : "", "joined", s->keys.joined[k]));
    }
    return list;
}

static json_t *clocks_json(struct session *s)
{
    if (!session_clocked(s))
        return json_null();
    json_t *clocks = json_object();
    for (int p = 0; p < s->nseats; p++) {
        char letter[2] = { s->rec.v->colour_letter[p], 0 };
        json_object_set_new(clocks, letter, json_integer(session_clock_left(s, p) / MS));
    }
    int side = session_side_to_move(s);
    json_object_set_new(clocks, "running", session_clock_runs(s, side) ? letter_json(s->rec.v, side) : json_null());
    return clocks;
}

/* Each army's material in the shown position (setup) and what it took on the way there: along the
 * game as played, or along the variation shown, replayed. */
static json_t *material_shown(struct session *s, const struct setup *setup)
{
    const struct variant *v = s->rec.v;
    json_t *material = material_json(v, setup, s->rec.start_material);
    struct record variation;
    const struct record *line = &s->rec;
    if (!tree_on_main(&s->rec.tree, s->node)) {
        /* Without memory the captures are left out, the material values kept. */
        if (!record_line(&s->rec, s->node, &variation))
            return material;
        line = &variation;
    }
    for (int i = 0; i < s->ply; i++)
        material_add(v, material, line->moves[i].army, &line->moves[i].captured);
    if (line == &variation)
        record_free(&variation);
    return material;
}

json_t *session_json_state(struct session *s)
{
    const struct variant *v = s->rec.v;
    struct game *g = (struct game *)session_shown(s);
    struct setup setup;
    char fen[2048], text[SETUP_PIECE_TEXT];
    int side = game_side(g);
    game_setup(g, &setup);
    game_fen(g, fen, sizeof fen);
    json_t *pieces = json_array(), *legal = json_array(), *moves = json_array(), *eliminated = json_array();
    bool check[MAX_CELLS] = { false };
    bool in_check = game_in_check(g);
    for (int c = 0; c < v->geo.ncells; c++) {
        if (!setup.piece[c])
            continue;
        setup_piece_text(v, setup.piece[c], text);
        json_array_append_new(pieces, json_pack("{s:s, s:s}", "cell", v->geo.name[c], "piece", text));
        check[c] = in_check && piece_colour(setup.piece[c]) == side && v->piece[piece_type(setup.piece[c])].royal;
    }
    if (session_movable(s)) {
        move_t list[MAX_MOVES];
        int n = game_legal_moves(g, list);
        for (int i = 0; i < n; i++) {
            move_to_text(v, list[i], text);
            json_array_append_new(legal, json_string(text));
        }
    }
    for (int i = 0; i < s->rec.nmoves; i++) {
        const struct played *p = &s->rec.moves[i];
        json_t *left = json_array();
        for (int a = 0; a < v->nplayers; a++)
            if (p->left >> a & 1)
                json_array_append_new(left, letter_json(v, a));
        json_array_append_new(moves, json_pack("{s:s, s:s, s:o, s:o, s:i}", "uci", p->uci, "san", p->san, "army",
                                               letter_json(v, p->army), "eliminated", left, "node",
                                               s->rec.tree.main[i + 1]));
    }
    unsigned armies = game_armies(g);
    for (int a = 0; a < v->nplayers; a++)
        if (!(armies >> a & 1))
            json_array_append_new(eliminated, letter_json(v, a));
    json_t *from_to = json_array();
    if (s->ply) {
        move_t m = s->rec.tree.node[s->node].move;
        json_array_append_new(from_to, json_string(v->geo.name[move_from(m)]));
        json_array_append_new(from_to, json_string(v->geo.name[move_to(m)]));
    }
    json_t *material = material_shown(s, &setup);
    /* The version orders the STATEs: a reply to a request may reach the page after the stream's newer one. */
    json_t *state = json_pack(
        "{s:s, s:I, s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b, s:i}", "id",
        s->id, "version", (json_int_t)s->state_version, "variant", v->name, "start", s->rec.start, "fen", fen, "ply",
        s->ply, "plies", s->rec.nmoves, "turn", letter_json(v, side), "pieces", pieces, "legal", legal, "check",
        cells_json(v, check), "last", from_to, "moves", moves, "result", result_json(s), "eliminated", eliminated,
        "seats", seats_json(s), "clocks", clocks_json(s), "abortable", session_abortable(s), "analysing", s->analyse,
        "multipv", s->multipv);
    json_object_set_new(state, "node", json_integer(s->node));
    json_object_set_new(state, "variations", tree_variations_json(&s->rec.tree, v->colour_letter, v->nplayers));
    json_object_set_new(state, "analysis_board", json_boolean(session_analysis_board(s)));
    json_object_set_new(state, "draw", flow_draw_json(&s->flow, v, s->rec.nmoves));
    json_object_set_new(state, "material", material);
    json_object_set_new(state, "shares", shares_json(&s->shares, v, armies));
    return state;
}

json_t *session_json_analysis(const struct session *s)
{
    json_t *lines = json_array();
    for (int i = 0; i < s->nlines; i++) {
        const struct line *l = &s->lines[i];
        json_t *pv = json_array();
        char copy[PV_LEN], *save;
        snprintf(copy, sizeof copy, "%s", l->pv);
        for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
            json_array_append_new(pv, json_string(m));
        json_array_append_new(lines, json_pack("{s:i, s:i, s:{s:i}, s:o, s:I, s:I}", "multipv", i + 1, "depth",
                                               l->depth, "score", l->mate ? "mate" : "cp", l->score, "pv", pv,
                                               "nodes", (json_int_t)l->nodes, "nps", (json_int_t)l->nps));
    }
    json_t *seat = s->analysis_seat < 0 ? json_null() : json_integer(s->analysis_seat);
    return json_pack("{s:o, s:i, s:o, s:o}", "seat", seat, "depth", s->nlines ? s->lines[0].depth : 0, "lines", lines,
                     "shares", shares_json(&s->shares, s->rec.v, game_armies(session_shown(s))));
}

json_t *session_json_review(struct session *s)
{
    return s->review ? review_json(s->review) : json_pack("{s:s}", "state", "none");
}
