/* The match's reports, from its configuration and results. */
#include "report.h"

#include <math.h>

#include "../games/pgn.h"

/* "inf" rather than an arithmetic on infinities. */
static double elo_margin(struct elo_interval iv)
{
    return isfinite(iv.low) && isfinite(iv.high) ? (iv.high - iv.low) / 2 : INFINITY;
}

static const char *engine_name(const struct match_conf *c, int e)
{
    return c->engine[e].name;
}

/* "Score of a vs b: W - L - D, stalemates G - R [mean] games". */
static void print_pair_score(const struct match_conf *c, int e, int f, const struct tally *t, FILE *out)
{
    fprintf(out, "Score of %s vs %s: %d - %d - %d, stalemates %d - %d [%.3f] %d\n", engine_name(c, e),
            engine_name(c, f), t->wins, t->losses, t->draws, t->stalemates_given, t->stalemates_received,
            tally_mean(t), t->games);
}

void report_score(const struct match_conf *c, const struct match_result *r, const int engine_of[], FILE *out)
{
    const struct tally *t = r->tally;
    if (c->tournament != TOURNAMENT_MATCH) {
        bool first = engine_of[0] < engine_of[1];
        int e = first ? engine_of[0] : engine_of[1], f = first ? engine_of[1] : engine_of[0];
        print_pair_score(c, e, f, &r->pair[e][f], out);
    } else if (c->nengines == 2) {
        print_pair_score(c, 0, 1, t, out);
    } else {
        /* "Score of a, b, c: 1.00 - 0.50 - 1.50 [0.333 0.167 0.500] 3", one column per engine. */
        fprintf(out, "Score of ");
        for (int e = 0; e < c->nengines; e++)
            fprintf(out, "%s%s", e ? ", " : "", engine_name(c, e));
        for (int e = 0; e < c->nengines; e++)
            fprintf(out, "%s%.2f", e ? " - " : ": ", t[e].sum);
        for (int e = 0; e < c->nengines; e++)
            fprintf(out, "%s%.3f", e ? " " : " [", tally_mean(&t[e]));
        fprintf(out, "] %d\n", r->games);
    }
}

static void report_elo(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    const struct tally *t = &r->tally[0];
    struct elo_interval iv = stats_elo(t);
    fprintf(out, "Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%, StalemateRatio: %.1f %%\n",
            iv.elo, elo_margin(iv), 100 * stats_los(t), t->games ? 100.0 * t->draws / t->games : 0,
            t->games ? 100.0 * (t->stalemates_given + t->stalemates_received) / t->games : 0);
    if (c->use_sprt) {
        static const char *const verdict[] = { "", " - H0 was accepted", " - H1 was accepted" };
        double lower, upper;
        sprt_bounds(&c->sprt, &lower, &upper);
        fprintf(out, "SPRT: llr %.3f, lbound %.3f, ubound %.3f, elo0 %g, elo1 %g%s\n", r->llr, lower, upper,
                c->sprt.elo0, c->sprt.elo1, verdict[r->verdict]);
    }
}

/* Every pair of engines that met: three players, how often the first finished ahead of the second;
 * a tournament, the pairing's score; each with the Elo of that score. */
static void report_pairs(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    int n = c->nengines;
    for (int e = 0; e < n; e++)
        for (int f = e + 1; f < n; f++) {
            const struct tally *t = &r->pair[e][f];
            struct elo_interval iv = stats_elo(t);
            if (!t->games)
                continue;
            if (c->v->nplayers > 2)
                fprintf(out, "%s ahead of %s: %d - %d - %d [%.3f] %d", engine_name(c, e), engine_name(c, f),
                        t->wins, t->losses, t->draws, tally_mean(t), t->games);
            else
                fprintf(out, "%s vs %s: %d - %d - %d, stalemates %d - %d [%.3f] %d", engine_name(c, e),
                        engine_name(c, f), t->wins, t->losses, t->draws, t->stalemates_given,
                        t->stalemates_received, tally_mean(t), t->games);
            fprintf(out, ", Elo %.1f +/- %.1f, LOS %.1f %%\n", iv.elo, elo_margin(iv), 100 * stats_los(t));
        }
}

/* Three players: the points of each seat whichever engine sat there, then the pairs. */
static void report_seats(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    fprintf(out, "\n%-9s %8s %6s %7s %5s %5s %5s\n", "Seat", "Points", "Games", "Score", "W", "L", "D");
    for (int colour = 0; colour < c->v->nplayers; colour++) {
        const struct tally *t = &r->seat[colour];
        fprintf(out, "%-9s %8.2f %6d %6.1f%% %5d %5d %5d\n", play_colour_name(c->v, colour), t->sum, t->games,
                100 * tally_mean(t), t->wins, t->losses, t->draws);
    }
    fprintf(out, "\nPairs (finished ahead - behind - level):\n");
    report_pairs(c, r, out);
}

/* Every engine, best score first; two players with Elo, three with the points won in each seat. */
static void report_table(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    int n = c->nengines, order[MAX_ENGINES];
    bool two = c->v->nplayers == 2;
    for (int e = 0; e < n; e++) {
        int i = e;
        for (; i > 0 && tally_mean(&r->tally[order[i - 1]]) < tally_mean(&r->tally[e]); i--)
            order[i] = order[i - 1];
        order[i] = e;
    }
    if (two)
        fprintf(out, "\n%-4s %-20s %8s %8s %6s %7s %5s %5s %5s %11s\n", "Rank", "Name", "Elo", "+/-", "Games",
                "Score", "W", "L", "D", "Stalemates");
    else {
        fprintf(out, "\n%-4s %-20s %8s %6s %7s %5s %5s %5s", "Rank", "Name", "Points", "Games", "Score", "W", "L", "D");
        for (int colour = 0; colour < c->v->nplayers; colour++)
            fprintf(out, " %8s", play_colour_name(c->v, colour));
        fprintf(out, "\n");
    }
    for (int rank = 0; rank < n; rank++) {
        int e = order[rank];
        const struct tally *t = &r->tally[e];
        struct elo_interval iv = stats_elo(t);
        if (two) {
            fprintf(out, "%4d %-20s %8.1f %8.1f %6d %6.1f%% %5d %5d %5d %5d - %d\n", rank + 1, engine_name(c, e),
                    iv.elo, elo_margin(iv), t->games, 100 * tally_mean(t), t->wins, t->losses, t->draws,
                    t->stalemates_given, t->stalemates_received);
            continue;
        }
        fprintf(out, "%4d %-20s %8.2f %6d %6.1f%% %5d %5d %5d", rank + 1, engine_name(c, e), t->sum, t->games,
                100 * tally_mean(t), t->wins, t->losses, t->draws);
        for (int colour = 0; colour < n; colour++)
            fprintf(out, " %8.2f", r->engine_seat[e][colour].sum);
        fprintf(out, "\n");
    }
    if (!two) {
        report_seats(c, r, out);
    } else if (c->tournament != TOURNAMENT_MATCH) {
        fprintf(out, "\nPairings (first engine's W - L - D):\n");
        report_pairs(c, r, out);
    }
}

void report_rating(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    if (c->tournament == TOURNAMENT_MATCH && c->nengines == 2)
        report_elo(c, r, out);
    else
        report_pairs(c, r, out);
}

/* PGN's Termination tag says "adjudication" for both adjudged draws and resignations; the summary
 * tells them apart. */
static const char *termination_label(enum termination term)
{
    return term == TERM_ADJUDICATED_DRAW ? "adjudicated draw" : term == TERM_RESIGNATION ? "resignation"
                                                                                          : pgn_termination(term);
}

void report_final(const struct match_conf *c, const struct match_result *r, FILE *out)
{
    if (c->tournament == TOURNAMENT_MATCH && c->nengines == 2)
        report_elo(c, r, out);
    report_table(c, r, out);
    const char *sep = " ";
    fprintf(out, "\nTerminations:");
    for (int term = 0; term < TERM_COUNT; term++)
        if (r->terminations[term]) {
            fprintf(out, "%s%s %d", sep, termination_label(term), r->terminations[term]);
            sep = ", ";
        }
    fprintf(out, "%s\nEngine failures:", r->games ? "" : " none");
    sep = " ";
    for (int e = 0; e < c->nengines; e++)
        for (int term = TERM_TIME; term < TERM_ABANDONED; term++)
            if (r->faults[e][term]) {
                fprintf(out, "%s%s: %s %d", sep, engine_name(c, e), pgn_termination(term), r->faults[e][term]);
                sep = ", ";
            }
    fprintf(out, "%s\n", sep[0] == ',' ? "" : " none");
}
