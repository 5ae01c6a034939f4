/* Requests on the moves and the shown position: a move, a line of moves, variations promoted and
 * deleted, a take-back, the position looked at. */
#include "moves.h"

#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "seats.h"
#include "session.h"
#include "session_json.h"
#include "tree_record.h"

/* Plays a move, as terminal play takes it ("f5f6", "f5-f6", "Pf5f6", SAN), in the shown position: at
 * the game's end it is the game's next move; before it, on an analysis board, it goes into the tree (the
 * line that has it already, or a new variation) and is shown. 200, or the error's status with err. */
static int play_here(struct session *s, const char *text, char *err, size_t errlen)
{
    struct game *g = (struct game *)session_shown(s);
    move_t m;
    if (!session_movable(s)) {
        const char *why = session_at_end(s)           ? session_over(s) ? "the game is over" : "not a person's turn"
                          : session_analysis_board(s) ? "the game is over in this line"
                                                      : "an earlier position is shown";
        snprintf(err, errlen, "%s", why);
        return 409;
    }
    if (!game_parse_move(g, text, &m, err, errlen))
        return 400;
    if (session_at_end(s)) {
        if (!session_charge_clock(s))
            return snprintf(err, errlen, "lost on time"), 409;
        session_play(s, m);
        return 200;
    }
    struct tree_node node;
    tree_node_of(g, m, &node);
    node.left = game_play(g, m, NULL);
    int id = tree_find(&s->rec.tree, s->node, node.uci);
    if (id < 0 && (id = tree_add(&s->rec.tree, s->node, &node)) < 0) {
        session_show_node(s);
        return snprintf(err, errlen, "out of memory"), 503;
    }
    s->node = id;
    s->ply = s->rec.tree.node[id].depth;
    session_interrupt(s, false);
    session_state_changed(s);
    return 200;
}

void moves_play(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    const char *move;
    char err[256];
    if (json_unpack((json_t *)body, "{s:s}", "move", &move)) {
        reply_error(r, 400, "{\"move\": \"f5f6\"} expected");
        return;
    }
    int status = play_here(s, move, err, sizeof err);
    if (status != 200)
        reply_error(r, status, "%s", err);
    else
        reply_json(r, 200, session_json_state(s));
}

void moves_line(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_t *list = NULL;
    char err[512], why[256];
    struct game g = { 0 };
    if (json_unpack((json_t *)body, "{s:o}", "moves", &list) || !json_is_array(list) || !json_array_size(list)) {
        reply_error(r, 400, "{\"moves\": [\"f5f6\", ...]} expected");
        return;
    }
    bool ok = game_init(&g, s->rec.v, false, err, sizeof err)
              && tree_position(&s->rec.tree, s->node, s->rec.start, &g, err, sizeof err);
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        const char *move = json_string_value(json_array_get(list, i));
        move_t m;
        ok = move && game_status(&g).outcome == GAME_ONGOING && game_parse_move(&g, move, &m, why, sizeof why);
        if (ok)
            game_play(&g, m, NULL);
        else
            snprintf(err, sizeof err, "move %zu of the line: %s", i + 1,
                     !move ? "not a string" : game_status(&g).outcome != GAME_ONGOING ? "the game is over there" : why);
    }
    game_free(&g);
    int status = ok ? 200 : 400;
    for (size_t i = 0; status == 200 && i < json_array_size(list); i++)
        status = play_here(s, json_string_value(json_array_get(list, i)), err, sizeof err);
    if (status != 200)
        reply_error(r, status, "%s", err);
    else
        reply_json(r, 200, session_json_state(s));
}

/* The tree's main line changed (a variation promoted or deleted): the game follows it, as an analysis
 * board from now on. */
static bool main_changed(struct session *s)
{
    s->analysis = true;
    s->forfeit = -1;
    s->aborted = false;
    if (!record_replay(&s->rec))
        return false;
    session_game_changed(s, false);
    return true;
}

/* The node a request on the tree names ({"node": id}, a move's), or -1 with the reply set. */
static int tree_request(struct session *s, const json_t *body, struct reply *r)
{
    json_int_t id = -1;
    if (json_unpack((json_t *)body, "{s:I}", "node", &id) || id <= 0 || id > INT32_MAX
        || !tree_has(&s->rec.tree, (int)id)) {
        reply_error(r, 400, "{\"node\": the id of a move in the tree} expected");
        return -1;
    }
    if (!session_analysis_board(s)) {
        reply_error(r, 409, "variations are edited on an analysis board: a game over, or one without engines");
        return -1;
    }
    return (int)id;
}

void moves_promote(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int id = tree_request(s, body, r);
    if (id < 0)
        return;
    if (!tree_on_main(&s->rec.tree, id)) {
        tree_promote(&s->rec.tree, id);
        if (!main_changed(s)) {
            reply_error(r, 503, "out of memory");
            return;
        }
    }
    reply_json(r, 200, session_json_state(s));
}

void moves_delete(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int id = tree_request(s, body, r);
    if (id < 0)
        return;
    bool main = tree_on_main(&s->rec.tree, id);
    int parent = s->rec.tree.node[id].parent;
    tree_delete(&s->rec.tree, id);
    /* A shown move that is gone shows the position it was played from. */
    if (!tree_has(&s->rec.tree, s->node))
        s->node = parent;
    if (main && !main_changed(s)) {
        reply_error(r, 503, "out of memory");
        return;
    }
    if (!main) {
        session_show_node(s);
        session_interrupt(s, false);
        session_state_changed(s);
    }
    reply_json(r, 200, session_json_state(s));
}

void moves_undo(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    bool person = false;
    for (int k = 0; k < s->nseats; k++)
        person |= !s->seat[k].engine;
    /* Against an engine, back to a person's turn: the army that played move n is to move after n. */
    int n = s->rec.nmoves - 1;
    while (n > 0 && person && s->seat[s->rec.moves[n].army].engine)
        n--;
    if (n < 0) {
        reply_error(r, 409, "no move to take back");
        return;
    }
    s->rec.nmoves = n;
    tree_cut(&s->rec.tree, s->rec.tree.main[n]);
    if (!record_position(&s->rec, &s->rec.game, n)) {
        reply_error(r, 503, "out of memory");
        return;
    }
    s->forfeit = -1;
    s->aborted = false;
    flow_reset(&s->flow, false);
    session_drop_review(s);
    session_game_changed(s, true);
    reply_json(r, 200, session_json_state(s));
}

/* Served to the network, each page steps through the moves on its own: the STATE at that ply goes to
 * the asker alone, so that one page looking back never holds up the players. */
static void personal_view(struct session *s, int node, struct reply *r)
{
    struct game there = { 0 }, live = s->view;
    char err[256];
    int shown_node = s->node, shown_ply = s->ply;
    if (!game_init(&there, s->rec.v, false, err, sizeof err)) {
        reply_error(r, 503, "%s", err);
        return;
    }
    s->view = there;
    s->node = node;
    if (session_show_node(s))
        reply_json(r, 200, session_json_state(s));
    else
        reply_error(r, 503, "out of memory");
    there = s->view;
    s->view = live;
    s->node = shown_node;
    s->ply = shown_ply;
    game_free(&there);
}

void moves_view(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_int_t ply = -1, node = -1;
    if (json_unpack((json_t *)body, "{s?I, s?I}", "ply", &ply, "node", &node) || (ply < 0) == (node < 0)
        || ply > s->rec.nmoves || node > INT32_MAX || (node >= 0 && !tree_has(&s->rec.tree, (int)node))) {
        reply_error(r, 400, "{\"ply\": 0..%d} or {\"node\": the id of a position in the tree} expected",
                    s->rec.nmoves);
        return;
    }
    int target = node >= 0 ? (int)node : s->rec.tree.main[ply];
    if (seats_tokens_required()) {
        personal_view(s, target, r);
        return;
    }
    int shown_before = s->node;
    s->node = target;
    if (!session_show_node(s)) {
        s->node = shown_before;
        session_show_node(s);
        reply_error(r, 503, "out of memory");
        return;
    }
    session_interrupt(s, false);
    session_state_changed(s);
    reply_json(r, 200, session_json_state(s));
}
