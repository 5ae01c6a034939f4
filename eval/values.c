/* Piece values: the variant's own, or derived from mobility on the empty board. */
#include "values.h"

#include <math.h>

/* Distinct cells a piece's curved paths reach from the cell on the empty board (paths and their
 * mirrors share targets, and straight moves may reach some too: those count twice, as for R + W). */
static int curved_reach(const struct variant *v, int type, int cell)
{
    const struct piece_def *pd = &v->piece[type];
    unsigned dirs = pd->curved[MODE_MOVE] | pd->curved[MODE_CAPTURE] | pd->curved[MODE_BOTH];
    bool seen[MAX_CELLS] = { false };
    int cells[CURVED_MAX_STEPS], n = 0;
    for (int d = 0; d < NUM_STRAIGHT; d++) {
        if (!(dirs >> d & 1))
            continue;
        for (int sense = -1; sense <= 1; sense += 2) {
            int len = geo_curved_path(&v->geo, cell, d, sense, cells), limit = pd->curved_steps[d >= DIR_DIAG];
            for (int k = 0; k < len && k < limit; k++) {
                n += !seen[cells[k]];
                seen[cells[k]] = true;
            }
        }
    }
    return n;
}

void values_mobility(const struct variant *v, int type, double *leaps, double *lines)
{
    const struct geometry *g = &v->geo;
    const struct piece_def *pd = &v->piece[type];
    long leap = 0, line = 0;
    for (int c = 0; c < g->ncells; c++) {
        for (int i = 0; i < pd->nleaps; i++)
            leap += geo_cell(g, g->q[c] + pd->leaps[i].dq, g->r[c] + pd->leaps[i].dr) != CELL_NONE;
        for (int d = 0; d < NUM_STRAIGHT + NUM_ROOT7; d++) {
            bool straight = d < NUM_STRAIGHT;
            unsigned all = straight ? pd->slide[1] | pd->slide[2] | pd->slide[3] : pd->ride[1] | pd->ride[2] | pd->ride[3];
            int bit = straight ? d : d - NUM_STRAIGHT;
            if (!(all & (1u << bit)))
                continue;
            struct vec u = straight ? geo_straight(d) : geo_root7[bit];
            for (int k = 1; geo_cell(g, g->q[c] + k * u.q, g->r[c] + k * u.r) != CELL_NONE; k++)
                line++;
        }
        line += curved_reach(v, type, c);
        unsigned paths[PATH_KINDS];
        bool seen[MAX_CELLS] = { false };
        for (int k = 0; k < PATH_KINDS; k++)
            paths[k] = pd->path[k][MODE_MOVE] | pd->path[k][MODE_CAPTURE] | pd->path[k][MODE_BOTH];
        line += geo_path_reach(g, c, paths, seen);
    }
    *leaps = (double)leap / g->ncells;
    *lines = (double)line / g->ncells;
}

/* value_scale * (leap_mobility + line_weight * line_mobility) ^ value_exponent pawns, fitted to Pacey's
 * Full House table (seed 001). */
static const double value_scale = 0.606, value_exponent = 0.894, line_weight = 0.56;

void values_of(const struct variant *v, int *value)
{
    for (int t = 0; t < v->ntypes; t++) {
        const struct piece_def *pd = &v->piece[t];
        double pawns = pd->value;
        if (pd->royal) {
            pawns = 0;
        } else if (pawns <= 0 && pd->pawn) {
            pawns = 1;
        } else if (pawns <= 0) {
            double leaps, lines;
            values_mobility(v, t, &leaps, &lines);
            pawns = value_scale * pow(leaps + line_weight * lines, value_exponent);
        }
        value[t] = (int)lround(pawns * 100);
    }
}
