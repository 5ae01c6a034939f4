/* The game flow beside the moves: resigning, draw offers and the engines' answers (actions.h). */
#include "actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void flow_reset(struct flow *f, bool new_game)
{
    f->resigned = -1;
    f->agreed = false;
    f->offers = 0;
    f->message[0] = 0;
    if (new_game)
        memset(f->scored, 0, sizeof f->scored);
}

bool flow_over(const struct flow *f)
{
    return f->resigned >= 0 || f->agreed;
}

void flow_scored(struct flow *f, int seat, const struct uci_reply *reply)
{
    f->scored[seat] = reply->has_score;
    f->score[seat] = reply->score;
}

/* The army of a letter ("w"), or -1. */
static int army_of(const struct variant *v, const char *letter)
{
    const char *at = strlen(letter) == 1 ? memchr(v->colour_letter, letter[0], (size_t)v->nplayers) : NULL;
    return at ? (int)(at - v->colour_letter) : -1;
}

int flow_army(const struct variant *v, const json_t *body)
{
    const char *letter;
    return json_unpack((json_t *)body, "{s:s}", "army", &letter) ? -1 : army_of(v, letter);
}

/* The army a request names ({"army": "w"}), a person's on the board; an HTTP status. */
static int person_of(const struct flow_game *g, const char *letter, int *army, char *err, size_t len)
{
    const struct variant *v = g->v;
    if ((*army = army_of(v, letter)) < 0) {
        snprintf(err, len, "no army '%s' in %s", letter, v->name);
        return 400;
    }
    if (g->over) {
        snprintf(err, len, "the game is over");
        return 409;
    }
    if (g->engine[*army]) {
        snprintf(err, len, "%s is played by an engine", play_colour_name(v, *army));
        return 400;
    }
    if (!(g->armies >> *army & 1)) {
        snprintf(err, len, "%s has left the board", play_colour_name(v, *army));
        return 409;
    }
    return 200;
}

int flow_resign(struct flow *f, const struct flow_game *g, const json_t *body, char *err, size_t len)
{
    const char *letter;
    int army, status;
    if (json_unpack((json_t *)body, "{s:s}", "army", &letter)) {
        snprintf(err, len, "{\"army\": \"w\"} expected");
        return 400;
    }
    if ((status = person_of(g, letter, &army, err, len)) != 200)
        return status;
    f->resigned = army;
    return 200;
}

static void flow_say(struct flow *f, int plies, const char *text)
{
    snprintf(f->message, sizeof f->message, "%s", text);
    f->message_ply = plies;
}

/* An engine seat's answer: true to accept, else the offer is declined with the engine's reason. */
static bool engine_accepts(struct flow *f, const struct flow_game *g, int seat)
{
    char text[160];
    const char *name = play_colour_name(g->v, seat);
    if (!f->scored[seat]) {
        snprintf(text, sizeof text, "%s declines the draw: it has not searched this game yet", name);
    } else if (f->score[seat] > DRAW_ACCEPT_CP) {
        if (abs(f->score[seat]) >= UCI_MATE_SCORE - 1000)
            snprintf(text, sizeof text, "%s declines the draw: it sees a mate", name);
        else
            snprintf(text, sizeof text, "%s declines the draw (%+.2f)", name, f->score[seat] / 100.0);
    } else {
        return true;
    }
    flow_say(f, g->plies, text);
    return false;
}

int flow_draw(struct flow *f, const struct flow_game *g, const json_t *body, char *err, size_t len)
{
    const char *letter;
    int army, status, accept = 1;
    if (json_unpack((json_t *)body, "{s:s, s?b}", "army", &letter, "accept", &accept)) {
        snprintf(err, len, "{\"army\": \"w\", \"accept\": true|false} expected");
        return 400;
    }
    if ((status = person_of(g, letter, &army, err, len)) != 200)
        return status;
    /* An offer stands until the next move. */
    if (f->offer_ply != g->plies)
        f->offers = 0;
    const char *name = play_colour_name(g->v, army);
    char text[160];
    if (!accept) {
        if (!(f->offers & ~(1u << army))) {
            snprintf(err, len, "no draw offer to decline");
            return 409;
        }
        f->offers = 0;
        snprintf(text, sizeof text, "%s declines the draw", name);
        flow_say(f, g->plies, text);
        return 200;
    }
    f->offers |= 1u << army;
    f->offer_ply = g->plies;
    for (int k = 0; k < g->nseats; k++)
        if (g->engine[k] && g->armies >> k & 1 && !(f->offers >> k & 1)) {
            if (!engine_accepts(f, g, k)) {
                f->offers = 0;
                return 200;
            }
            f->offers |= 1u << k;
        }
    f->agreed = (g->armies & ~f->offers) == 0;
    snprintf(text, sizeof text, f->agreed ? "Draw agreed" : "%s offers a draw", name);
    flow_say(f, g->plies, text);
    return 200;
}

int flow_rematch(const struct flow_game *g, const json_t *body, bool *swap, char *err, size_t len)
{
    int on = 0;
    if (body && json_unpack((json_t *)body, "{s?b}", "swap", &on)) {
        snprintf(err, len, "{\"swap\": true|false} expected");
        return 400;
    }
    if (!g->over) {
        snprintf(err, len, "the game is not over: resign, offer a draw or abort it first");
        return 409;
    }
    *swap = on;
    return 200;
}

json_t *flow_shared_points(const struct variant *v, unsigned share)
{
    json_t *points = json_object();
    int den = __builtin_popcount(share);
    for (int p = 0; p < v->nplayers; p++) {
        char letter[2] = { v->colour_letter[p], 0 };
        json_object_set_new(points, letter, json_real(den && share >> p & 1 ? 1.0 / den : 0));
    }
    return points;
}

/* The armies that share the point. */
static unsigned flow_share(const struct flow *f, unsigned armies)
{
    return f->resigned >= 0 ? armies & ~(1u << f->resigned) : armies;
}

json_t *flow_result_json(const struct flow *f, const struct variant *v, unsigned armies)
{
    if (!flow_over(f))
        return NULL;
    json_t *points = flow_shared_points(v, flow_share(f, armies));
    if (f->agreed)
        return json_pack("{s:s, s:s, s:o}", "text", "draw by agreement", "reason", "agreement", "points", points);
    char text[64], letter[2] = { v->colour_letter[f->resigned], 0 };
    snprintf(text, sizeof text, "%s resigns", play_colour_name(v, f->resigned));
    return json_pack("{s:s, s:s, s:s, s:o}", "text", text, "reason", "resignation", "army", letter, "points", points);
}

json_t *flow_draw_json(const struct flow *f, const struct variant *v, int plies)
{
    json_t *offers = json_array();
    for (int p = 0; p < v->nplayers && f->offer_ply == plies; p++)
        if (f->offers >> p & 1) {
            char letter[2] = { v->colour_letter[p], 0 };
            json_array_append_new(offers, json_string(letter));
        }
    return json_pack("{s:o, s:s}", "offers", offers, "message", f->message_ply == plies ? f->message : "");
}

void flow_record(const struct flow *f, const struct variant *v, struct game_record *r, unsigned armies)
{
    game_record_share(r, f->agreed ? TERM_ADJUDICATED_DRAW : TERM_RESIGNATION, flow_share(f, armies));
    if (f->agreed)
        snprintf(r->reason, sizeof r->reason, "Draw by agreement");
    else
        snprintf(r->reason, sizeof r->reason, "%s resigns", play_colour_name(v, f->resigned));
}
