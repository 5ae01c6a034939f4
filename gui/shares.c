/* Expected shares of the points from search scores (shares.h). */
#include "shares.h"

#include <math.h>
#include <string.h>

#include "../client/uci_client.h"

/* lichess's winning-chances slope per centipawn (gui/www/score.js). */
static const double SLOPE = 0.00368208;
static const double MATE_BOUND = UCI_MATE_SCORE - 1000; /* beyond it a score is a mate */

/* A softmax over the armies' scores at lichess's slope: the scores give the evaluations up to a common
 * offset, so the lean of a multi-player search (the others play against the mover), common to every
 * army, cancels; with two armies it is lichess's curve. An army without a score counts as average; a
 * mate decides at once, and a mated army has no share. */
void shares_expected(int n, unsigned board, const double *score, double *share)
{
    unsigned alive = 0;
    int nalive = 0, nknown = 0;
    double sum = 0;
    for (int a = 0; a < n; a++) {
        share[a] = 0;
        if (!(board >> a & 1))
            continue;
        if (score[a] > MATE_BOUND) {
            memset(share, 0, sizeof *share * (size_t)n);
            share[a] = 1;
            return;
        }
        if (score[a] < -MATE_BOUND)
            continue;
        alive |= 1u << a;
        nalive++;
        if (!isnan(score[a]))
            sum += score[a], nknown++;
    }
    double mean = nknown ? sum / nknown : 0, total = 0, weight[MAX_PLAYERS] = { 0 };
    for (int a = 0; a < n; a++)
        if (alive >> a & 1) {
            /* a score is the army's evaluation minus the others' mean: (n - 1) / n of its lead over the average */
            double lead = isnan(score[a]) ? 0 : score[a] - mean;
            total += weight[a] = exp(SLOPE * (nalive - 1) / nalive * lead);
        }
    for (int a = 0; a < n; a++)
        share[a] = total > 0 ? weight[a] / total : 0;
}

void shares_reset(struct shares *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->latest = -1;
}

void shares_record(struct shares *sh, int army, bool mate, int value)
{
    if (army < 0 || army >= MAX_PLAYERS)
        return;
    sh->known[army] = true;
    sh->score[army] = !mate ? value : value > 0 ? UCI_MATE_SCORE - value : -UCI_MATE_SCORE - value;
    sh->latest = army;
}

json_t *shares_json(const struct shares *sh, const struct variant *v, unsigned board)
{
    double score[MAX_PLAYERS], share[MAX_PLAYERS];
    for (int a = 0; a < v->nplayers; a++)
        score[a] = sh->known[a] ? sh->score[a] : NAN;
    /* Two armies share a zero-sum score: the latest search speaks for both, an older one for neither. */
    if (v->nplayers == 2 && sh->latest >= 0 && sh->latest < 2)
        score[!sh->latest] = -score[sh->latest];
    shares_expected(v->nplayers, board, score, share);
    json_t *out = json_object();
    for (int a = 0; a < v->nplayers; a++) {
        char letter[2] = { v->colour_letter[a], 0 };
        json_object_set_new(out, letter, json_real(share[a]));
    }
    return out;
}
