/* Match statistics on per-game scores: Elo with a 95% interval, LOS and the SPRT (docs/match.md).
 * Every figure comes from the mean and variance of one player's scores, so that a game scored 3/4 or
 * 1/4 (a Glinski stalemate) weighs exactly what it is worth. */
#ifndef STATS_H
#define STATS_H

/* One player's results: a score in [0, 1] per game. */
struct tally {
    int games;
    int wins, losses, draws;                    /* games that did not end in stalemate: 1, 0, other */
    int stalemates_given, stalemates_received;  /* whatever the variant scores them */
    double sum, sum_sq;                         /* of the scores and of their squares */
};

enum tally_kind { TALLY_PLAYED, TALLY_STALEMATE_GIVEN, TALLY_STALEMATE_RECEIVED };

void tally_add(struct tally *t, double score, enum tally_kind kind);
/* The mean score (1/2 with no games) and the variance of a single game's score around it. */
double tally_mean(const struct tally *t);
double tally_variance(const struct tally *t);

/* The logistic model: expected score of an Elo difference, and back (±INFINITY at 1 and 0). */
double stats_score_of_elo(double elo);
double stats_elo_of_score(double score);

struct elo_interval {
    double elo, low, high;  /* high - low is the 95% interval; ± (high - low) / 2 is reported */
};
struct elo_interval stats_elo(const struct tally *t);
/* Likelihood of superiority: the probability that the true score is above 1/2. */
double stats_los(const struct tally *t);

struct sprt {
    double elo0, elo1, alpha, beta;
};
enum sprt_verdict { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 };

/* ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
void sprt_bounds(const struct sprt *s, double *lower, double *upper);
/* The log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation; 0 while the
 * scores have no variance (no games, one game, or all alike). */
double sprt_llr(const struct sprt *s, const struct tally *t);
enum sprt_verdict sprt_verdict(const struct sprt *s, double llr);

#endif
