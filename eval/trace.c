/* Evaluations and terms from a trace's counts. */
#include "trace.h"

void trace_terms(const struct eval_trace *tr, const struct eval_params *p, int nplayers, int term[][NUM_TERMS][2])
{
    for (int pl = 0; pl < nplayers; pl++) {
        for (int t = 0; t < NUM_TERMS; t++)
            term[pl][t][0] = term[pl][t][1] = 0;
        for (int id = 0; id < NUM_WEIGHTS; id++) {
            int k, n = tr->coef[pl][id];
            int t = weights_family(id, &k)->term;
            term[pl][t][0] += n * p->w[id].mg;
            term[pl][t][1] += n * p->w[id].eg;
        }
    }
}

int trace_evaluate(const struct eval_trace *tr, const struct eval_params *p, int nplayers)
{
    int term[MAX_PLAYERS][NUM_TERMS][2], others = 0, opponents = 0, score[MAX_PLAYERS] = { 0 };
    trace_terms(tr, p, nplayers, term);
    for (int pl = 0; pl < nplayers; pl++) {
        int mg = 0, eg = 0;
        for (int t = 0; t < NUM_TERMS; t++) {
            mg += term[pl][t][0];
            eg += term[pl][t][1];
        }
        score[pl] = (mg * tr->phase + eg * (256 - tr->phase)) / 256;
        if (tr->counted[pl]) {
            others += score[pl];
            opponents++;
        }
    }
    return score[tr->view] - (opponents ? others / opponents : 0);
}
