/* One reproducible search for the book builders: one thread, a cleared table, node or depth limits. */
#include "lines.h"

static void collect_line(void *ctx, const struct search_report *r)
{
    struct lines *l = ctx;
    if (r->bound != BOUND_EXACT || r->pvlen < 1)
        return;
    if (r->multipv == 1) {
        l->depth = r->depth;
        l->n = 0;
    }
    if (r->depth == l->depth && r->multipv == l->n + 1 && l->n < MAX_MULTIPV) {
        l->move[l->n] = r->pv[0];
        l->score[l->n++] = r->score;
    }
}

static void keep_best(void *ctx, move_t best, move_t ponder)
{
    (void)ponder;
    ((struct lines *)ctx)->best = best;
}

bool lines_search(struct search_pool *pool, struct game *g, int width, int depth, uint64_t nodes, struct lines *out)
{
    pool_clear(pool);
    return lines_continue(pool, g, width, depth, nodes, out);
}

bool lines_continue(struct search_pool *pool, struct game *g, int width, int depth, uint64_t nodes,
                    struct lines *out)
{
    struct search_limits l = { .depth = depth, .nodes = nodes };
    for (int p = 0; p < MAX_PLAYERS; p++)
        l.time[p] = l.inc[p] = -1;
    *out = (struct lines){ 0 };
    const struct search_callbacks cb = { collect_line, NULL, keep_best, out };
    return pool_run(pool, g, &l, NULL, width, &cb);
}
