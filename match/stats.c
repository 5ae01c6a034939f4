/* Match statistics: score, Elo with a 95% interval, LOS and the SPRT from per-game scores. */
#include "stats.h"

#include <math.h>

/* The two-sided 95% quantile of the normal distribution. */
static const double Z95 = 1.959963984540054;

void tally_add(struct tally *t, double score, enum tally_kind kind)
{
    t->games++;
    t->sum += score;
    t->sum_sq += score * score;
    if (kind == TALLY_STALEMATE_GIVEN)
        t->stalemates_given++;
    else if (kind == TALLY_STALEMATE_RECEIVED)
        t->stalemates_received++;
    else if (score == 1.0)
        t->wins++;
    else if (score == 0.0)
        t->losses++;
    else
        t->draws++;
}

double tally_mean(const struct tally *t)
{
    return t->games ? t->sum / t->games : 0.5;
}

double tally_variance(const struct tally *t)
{
    if (!t->games)
        return 0;
    double mean = tally_mean(t), var = t->sum_sq / t->games - mean * mean;
    /* Rounding can leave a tiny negative number when every score is the same. */
    return var > 0 ? var : 0;
}

double stats_score_of_elo(double elo)
{
    return 1 / (1 + pow(10, -elo / 400));
}

double stats_elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return 400 * log10(score / (1 - score));
}

static double standard_error(const struct tally *t)
{
    return t->games ? sqrt(tally_variance(t) / t->games) : 0;
}

struct elo_interval stats_elo(const struct tally *t)
{
    double mean = tally_mean(t), margin = Z95 * standard_error(t);
    return (struct elo_interval){
        .elo = stats_elo_of_score(mean),
        .low = stats_elo_of_score(mean - margin),
        .high = stats_elo_of_score(mean + margin),
    };
}

double stats_los(const struct tally *t)
{
    double mean = tally_mean(t), se = standard_error(t);
    if (se == 0)
        return mean > 0.5 ? 1 : mean < 0.5 ? 0 : 0.5;
    return 0.5 * (1 + erf((mean - 0.5) / (se * sqrt(2))));
}

void sprt_bounds(const struct sprt *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1 - s->alpha));
    *upper = log((1 - s->beta) / s->alpha);
}

/* Per-game scores approximated as normal with the observed variance: the log of the ratio of the
 * likelihoods of mean score s1 and s0 is (s1 - s0)(2 Σx - n (s0 + s1)) / (2 σ²). */
double sprt_llr(const struct sprt *s, const struct tally *t)
{
    double var = tally_variance(t);
    if (var == 0)
        return 0;
    double s0 = stats_score_of_elo(s->elo0), s1 = stats_score_of_elo(s->elo1);
    return (s1 - s0) * (2 * t->sum - t->games * (s0 + s1)) / (2 * var);
}

enum sprt_verdict sprt_verdict(const struct sprt *s, double llr)
{
    double lower, upper;
    sprt_bounds(s, &lower, &upper);
    if (llr >= upper)
        return SPRT_ACCEPT_H1;
    if (llr <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}
