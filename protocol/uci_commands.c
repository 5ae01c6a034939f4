/* The UCI server's commands that are no job and set no option: the game (ucinewgame, position,
 * variant), what it shows (d, eval), the variants (variants, check) and debug. */
#include <string.h>

#include "../rules/score.h"
#include "../eval/trace.h"
#include "../rules/diagram.h"
#include "../rules/registry.h"
#include "uci.h"
#include "uci_engine.h"

void cmd_debug(struct uci *u, char **tok, int n)
{
    if (n == 2 && (!strcmp(tok[1], "on") || !strcmp(tok[1], "off")))
        u->debug = !strcmp(tok[1], "on");
    else
        say_error("usage: debug on|off");
}

void cmd_ucinewgame(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    char err[ERR_LEN];
    table_clear(u);
    if (!game_set_position(&u->game, NULL, NULL, 0, err, sizeof err))
        say_error(err);
}

void cmd_variant(struct uci *u, char **tok, int n)
{
    if (n != 2)
        say_error("usage: variant <name>");
    else
        select_variant(u, tok[1]);
}

void cmd_position(struct uci *u, char **tok, int n)
{
    char fen[2048] = "", err[ERR_LEN];
    int i = 1;
    bool start = n > 1 && !strcmp(tok[1], "startpos");
    if (start) {
        i = 2;
    } else if (n > 1 && !strcmp(tok[1], "fen")) {
        for (i = 2; i < n && strcmp(tok[i], "moves"); i++)
            ;
        if (i == 2) {
            say_error("position fen: missing FEN");
            return;
        }
        if (!join_words(fen, sizeof fen, tok + 2, i - 2)) {
            say_error("position fen: FEN too long");
            return;
        }
    } else {
        say_error("usage: position startpos|fen <fen> [moves <m1> ...]");
        return;
    }
    if (i < n && strcmp(tok[i], "moves")) {
        snprintf(err, sizeof err, "position: unexpected '%s' (expected 'moves')", tok[i]);
        say_error(err);
        return;
    }
    int first = i < n ? i + 1 : n;
    if (!game_set_position(&u->game, start ? NULL : fen, tok + first, n - first, err, sizeof err)) {
        say_error(err);
        return;
    }
    for (int i = 0; i < u->game.neliminated; i++)
        say("info string eliminated %c", u->game.v->colour_letter[u->game.eliminated[i]]);
}

void cmd_d(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    struct setup s;
    char fen[2048];
    game_setup(&u->game, &s);
    say_lock();
    diagram_print(stdout, u->game.v, &s);
    fflush(stdout);
    say_unlock();
    game_fen(&u->game, fen, sizeof fen);
    say("Fen: %s", fen);
    say("Key: %016llx", (unsigned long long)game_key(&u->game));
    if (game_in_check(&u->game))
        say("Checkers: yes");
    char result[128];
    game_status_text(&u->game, game_status(&u->game), result, sizeof result);
    if (result[0])
        say("Result: %s", result);
}

/* eval: the weights in use, every term for every army (middlegame and endgame parts), the blend. */
void cmd_eval(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    const struct variant *v = u->game.v;
    const struct eval_params *p = game_eval_params(&u->game);
    struct eval_trace tr;
    int term[MAX_PLAYERS][NUM_TERMS][2];
    if (game_in_check(&u->game)) {
        say("info string eval: the side to move is in check; the search does not evaluate such positions");
        return;
    }
    game_evaluate(&u->game, &u->weights, &tr);
    say("weights %s, lazy margin %d cp", p->source, p->lazy_margin);
    if (tr.material_only) {
        say("Final evaluation: %d cp (side to move %c), Evaluation is material only", tr.total,
            v->colour_letter[game_side(&u->game)]);
        return;
    }
    trace_terms(&tr, p, v->nplayers, term);
    char head[128] = "term         ";
    for (int pl = 0; pl < v->nplayers; pl++)
        snprintf(head + strlen(head), sizeof head - strlen(head), " |   %c mg    %c eg", v->colour_letter[pl],
                 v->colour_letter[pl]);
    say("%s", head);
    for (int t = 0; t < NUM_TERMS; t++) {
        char line[128];
        int len = snprintf(line, sizeof line, "%-13s", eval_term_names[t]);
        for (int pl = 0; pl < v->nplayers; pl++)
            len += snprintf(line + len, sizeof line - (size_t)len, " | %6d %6d", term[pl][t][0], term[pl][t][1]);
        say("%s", line);
    }
    say("phase %d/256 (256: middlegame)", tr.phase);
    say("Final evaluation: %d cp (side to move %c)", tr.total,
        v->colour_letter[game_side(&u->game)]);
    int net = game_nnue_evaluate(&u->game);
    if (net != SCORE_NONE)
        say("NNUE evaluation: %d cp (side to move %c), what the search uses", net,
            v->colour_letter[game_side(&u->game)]);
}

void uci_variants(void)
{
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        say("%s %d %d %s", v->name, v->nplayers, v->geo.ncells, v->description);
    }
}

void cmd_variants(struct uci *u, char **tok, int n)
{
    (void)u, (void)tok, (void)n;
    uci_variants();
}

void cmd_check(struct uci *u, char **tok, int n)
{
    (void)u;
    char err[ERR_LEN * 8];
    if (n != 2) {
        say_error("usage: check <variant file>");
        return;
    }
    int count = registry_add_file(tok[1], true, game_validate_variant, err, sizeof err);
    if (count < 0)
        say_error(err);
    else
        say("info string %s: %d variant%s, no errors", tok[1], count, count == 1 ? "" : "s");
}
