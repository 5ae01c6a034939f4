/* The tuner: positions kept as sparse weight counts (computed once), K fitted first, then Adam over
 * every weight on the mean squared error between sigmoid(K * eval / 400) and the target. */
#include "tune.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../games/datagen_format.h"
#include "../util/random.h"

enum { MAX_TUNE_THREADS = 64, MATE_BOUND = 3000 };

void tune_set_free(struct tune_set *s)
{
    free(s->pos);
    free(s->id);
    free(s->count);
    memset(s, 0, sizeof *s);
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t next = *cap ? *cap * 2 : 1024;
    while (next < need)
        next *= 2;
    void *q = realloc(*p, next * size);
    if (!q)
        return false;
    *p = q;
    *cap = next;
    return true;
}

bool tune_set_add(struct tune_set *s, const struct eval_trace *tr, int nplayers, double result, double score)
{
    size_t cap_id = s->coef_cap, cap_count = s->coef_cap;
    if (!grow((void **)&s->pos, &s->cap, s->n + 1, sizeof *s->pos)
        || !grow((void **)&s->id, &cap_id, s->ncoef + NUM_WEIGHTS, sizeof *s->id)
        || !grow((void **)&s->count, &cap_count, s->ncoef + NUM_WEIGHTS, sizeof *s->count))
        return false;
    s->coef_cap = cap_id < cap_count ? cap_id : cap_count;
    struct tune_position *p = &s->pos[s->n++];
    *p = (struct tune_position){ .first = s->ncoef, .phase = (float)tr->phase / 256, .result = (float)result,
                                 .score = (float)score };
    int opponents = 0;
    for (int pl = 0; pl < nplayers; pl++)
        opponents += tr->counted[pl];
    /* From the mover's view: its counts less the mean of its opponents'. */
    for (int id = 0; id < NUM_WEIGHTS; id++) {
        double c = tr->coef[tr->view][id], others = 0;
        for (int pl = 0; pl < nplayers; pl++)
            others += tr->counted[pl] ? tr->coef[pl][id] : 0;
        c -= opponents ? others / opponents : 0;
        if (c != 0) {
            s->id[s->ncoef] = (uint16_t)id;
            s->count[s->ncoef++] = (float)c;
            p->ncoef++;
        }
    }
    return true;
}

bool tune_set_read(struct tune_set *s, struct game *g, const char *path, long *skipped, char *err, size_t errlen)
{
    struct datagen_reader rd;
    struct datagen_record r;
    struct eval_trace tr;
    if (!datagen_open(&rd, path, err, errlen))
        return false;
    int got;
    bool ok = true;
    while (ok && (got = datagen_next(&rd, &r, err, errlen)) == 1) {
        if (r.v != s->v || abs(r.score) >= MATE_BOUND || !game_set_setup(g, &r.s, err, errlen)
            || game_in_check(g)) {
            ++*skipped;
            continue;
        }
        game_evaluate(g, &eval_weights_default, &tr);
        ok = tune_set_add(s, &tr, s->v->nplayers, (double)r.points[r.s.side] / r.den, r.score);
        if (!ok)
            snprintf(err, errlen, "%s: out of memory after %zu positions", path, s->n);
    }
    datagen_close(&rd);
    return ok && got == 0;
}

static double sigmoid(double k, double x)
{
    return 1 / (1 + exp(-k * x / 400));
}

/* Weights as doubles while they are fitted. */
struct fit_weights {
    double mg[NUM_WEIGHTS], eg[NUM_WEIGHTS];
};

static double linear_eval(const struct tune_set *s, const struct tune_position *p, const struct fit_weights *w)
{
    double mg = 0, eg = 0;
    for (size_t i = p->first; i < p->first + (size_t)p->ncoef; i++) {
        mg += s->count[i] * w->mg[s->id[i]];
        eg += s->count[i] * w->eg[s->id[i]];
    }
    return mg * p->phase + eg * (1 - p->phase);
}

/* One thread's share of a pass over positions order[from .. to): the summed loss, and with grad the
 * summed gradient. */
struct pass {
    const struct tune_set *s;
    const struct fit_weights *w;
    const size_t *order;
    size_t from, to;
    double k, lambda;
    double loss;
    struct fit_weights *grad;
};

static void *pass_run(void *arg)
{
    struct pass *ps = arg;
    const struct tune_set *s = ps->s;
    ps->loss = 0;
    for (size_t j = ps->from; j < ps->to; j++) {
        const struct tune_position *p = &s->pos[ps->order ? ps->order[j] : j];
        double e = linear_eval(s, p, ps->w), out = sigmoid(ps->k, e);
        double target = ps->lambda * p->result + (1 - ps->lambda) * sigmoid(ps->k, p->score);
        ps->loss += (out - target) * (out - target);
        if (!ps->grad)
            continue;
        double d = 2 * (out - target) * out * (1 - out) * ps->k / 400;
        for (size_t i = p->first; i < p->first + (size_t)p->ncoef; i++) {
            ps->grad->mg[s->id[i]] += d * s->count[i] * p->phase;
            ps->grad->eg[s->id[i]] += d * s->count[i] * (1 - p->phase);
        }
    }
    return NULL;
}

/* The mean loss over order[0 .. n) (all positions if order is NULL), split among threads; the mean
 * gradient into grad if given. Partial sums are added in thread order, so a run repeats exactly. */
static double pass_all(const struct tune_set *s, const struct fit_weights *w, const size_t *order, size_t n, double k,
                       double lambda, int threads, struct fit_weights *grad)
{
    struct pass ps[MAX_TUNE_THREADS];
    pthread_t tid[MAX_TUNE_THREADS];
    bool started[MAX_TUNE_THREADS] = { false };
    static struct fit_weights partial[MAX_TUNE_THREADS];
    threads = threads < 1 ? 1 : threads > MAX_TUNE_THREADS ? MAX_TUNE_THREADS : threads;
    for (int t = 0; t < threads; t++) {
        ps[t] = (struct pass){ .s = s, .w = w, .order = order, .from = n * (size_t)t / (size_t)threads,
                               .to = n * (size_t)(t + 1) / (size_t)threads, .k = k, .lambda = lambda,
                               .grad = grad ? &partial[t] : NULL };
        if (grad)
            memset(&partial[t], 0, sizeof partial[t]);
        started[t] = t > 0 && !pthread_create(&tid[t], NULL, pass_run, &ps[t]);
    }
    for (int t = 0; t < threads; t++)
        if (!started[t])
            pass_run(&ps[t]); /* the calling thread's share, and any a thread could not take */
    double loss = 0;
    for (int t = 0; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        loss += ps[t].loss;
        for (int id = 0; grad && id < NUM_WEIGHTS; id++) {
            grad->mg[id] += partial[t].mg[id] / (double)n;
            grad->eg[id] += partial[t].eg[id] / (double)n;
        }
    }
    return n ? loss / (double)n : 0;
}

static void to_fit(const struct eval_params *p, struct fit_weights *w)
{
    for (int id = 0; id < NUM_WEIGHTS; id++) {
        w->mg[id] = p->w[id].mg;
        w->eg[id] = p->w[id].eg;
    }
}

double tune_fit_k(const struct tune_set *s, const struct eval_params *p, int threads)
{
    struct fit_weights w;
    to_fit(p, &w);
    /* Golden-section search: the loss against results alone is unimodal in K. */
    double a = 0.05, b = 10, g = (sqrt(5) - 1) / 2;
    for (int i = 0; i < 60; i++) {
        double c = b - g * (b - a), d = a + g * (b - a);
        if (pass_all(s, &w, NULL, s->n, c, 1, threads, NULL) < pass_all(s, &w, NULL, s->n, d, 1, threads, NULL))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2;
}

double tune_loss(const struct tune_set *s, const struct eval_params *p, const struct tune_options *o)
{
    struct fit_weights w;
    to_fit(p, &w);
    return pass_all(s, &w, NULL, s->n, o->k, o->lambda, o->threads, NULL);
}

bool tune_run(const struct tune_set *s, const struct tune_options *o, struct eval_params *p, FILE *progress)
{
    static struct fit_weights w, grad, m1, m2;
    size_t *order = malloc((s->n ? s->n : 1) * sizeof *order), batch = o->batch > 0 ? (size_t)o->batch : s->n;
    if (!order)
        return false;
    bool tuned[NUM_WEIGHTS] = { false };
    for (size_t i = 0; i < s->ncoef; i++)
        tuned[s->id[i]] = weights_applies(s->v, s->id[i]);
    to_fit(p, &w);
    memset(&m1, 0, sizeof m1);
    memset(&m2, 0, sizeof m2);
    for (size_t i = 0; i < s->n; i++)
        order[i] = i;
    uint64_t rng = o->seed;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    long step = 0;
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        /* Fisher-Yates from the seed: the same data and seed give the same batches. */
        for (size_t i = s->n; batch < s->n && i > 1; i--) {
            size_t j = (size_t)(random_next(&rng) % i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        double loss = 0;
        for (size_t at = 0; at < s->n; at += batch) {
            size_t n = s->n - at < batch ? s->n - at : batch;
            memset(&grad, 0, sizeof grad);
            loss += pass_all(s, &w, order + at, n, o->k, o->lambda, o->threads, &grad) * (double)n;
            step++;
            double c1 = 1 - pow(beta1, (double)step), c2 = 1 - pow(beta2, (double)step);
            for (int id = 0; id < NUM_WEIGHTS; id++) {
                if (!tuned[id])
                    continue;
                double *x[2] = { &w.mg[id], &w.eg[id] }, g[2] = { grad.mg[id], grad.eg[id] };
                double *a[2] = { &m1.mg[id], &m1.eg[id] }, *b[2] = { &m2.mg[id], &m2.eg[id] };
                for (int h = 0; h < 2; h++) {
                    *a[h] = beta1 * *a[h] + (1 - beta1) * g[h];
                    *b[h] = beta2 * *b[h] + (1 - beta2) * g[h] * g[h];
                    *x[h] -= o->lr * (*a[h] / c1) / (sqrt(*b[h] / c2) + eps);
                }
            }
        }
        if (progress && (epoch % 50 == 0 || epoch == o->epochs))
            fprintf(progress, "epoch %d/%d: loss %.6f\n", epoch, o->epochs, s->n ? loss / (double)s->n : 0);
    }
    free(order);
    for (int id = 0; id < NUM_WEIGHTS; id++)
        if (tuned[id])
            p->w[id] = (struct phased){ (int)lround(w.mg[id]), (int)lround(w.eg[id]) };
    return true;
}
