/* Hex board geometry: directions, board shapes, cell order, names, colours, curved paths. */
#include "geometry.h"

#include <stdlib.h>
#include <string.h>

const struct vec geo_orth[6] = { { 0, 1 }, { -1, 1 }, { -1, 0 }, { 0, -1 }, { 1, -1 }, { 1, 0 } };
const struct vec geo_diag[6] = { { -1, 2 }, { -2, 1 }, { -1, -1 }, { 1, -2 }, { 2, -1 }, { 1, 1 } };
const struct vec geo_root7[12] = {
    { 2, 1 }, { 1, 2 }, { -1, 3 }, { -2, 3 }, { -3, 2 }, { -3, 1 },
    { -2, -1 }, { -1, -2 }, { 1, -3 }, { 2, -3 }, { 3, -2 }, { 3, -1 },
};

/* Glinski's file letters: j is skipped. */
static const char file_letters[] = "abcdefghiklmnopqr";

static bool on_shape(enum board_shape shape, int radius, int q, int r)
{
    int s = -q - r;
    if (shape == SHAPE_HEXAGON)
        return abs(q) <= radius && abs(r) <= radius && abs(s) <= radius;
    /* Star of David: the union of two big triangles. */
    return (q >= -3 && r >= -3 && s >= -3) || (q <= 3 && r <= 3 && s <= 3);
}

bool geo_init(struct geometry *g, enum board_shape shape, int size)
{
    int radius;
    if (shape == SHAPE_HEXAGON) {
        if (size < 2 || size > 9)
            return false;
        radius = size - 1;
    } else if (shape == SHAPE_STAR) {
        radius = 6;
    } else {
        return false;
    }
    memset(g, 0, sizeof *g);
    memset(g->index_of, CELL_NONE, sizeof g->index_of);
    g->shape = shape;
    g->size = shape == SHAPE_HEXAGON ? size : 0;
    g->radius = radius;
    g->qmin = -radius;
    g->nfiles = 2 * radius + 1;
    int n = 0;
    for (int q = -radius; q <= radius; q++) {
        int file = q + radius, rank = 0;
        g->file_first[file] = n;
        for (int r = -radius; r <= radius; r++) {
            if (!on_shape(shape, radius, q, r))
                continue;
            g->q[n] = q;
            g->r[n] = r;
            g->index_of[q + 9][r + 9] = (unsigned char)n;
            g->name[n][0] = file_letters[file];
            rank++;
            if (rank < 10) {
                g->name[n][1] = (char)('0' + rank);
            } else {
                g->name[n][1] = (char)('0' + rank / 10);
                g->name[n][2] = (char)('0' + rank % 10);
            }
            n++;
        }
        g->file_len[file] = rank;
    }
    g->ncells = n;
    return true;
}

int geo_cell(const struct geometry *g, int q, int r)
{
    if (q < -9 || q > 9 || r < -9 || r > 9)
        return CELL_NONE;
    return g->index_of[q + 9][r + 9];
}

/* Reads a cell name at s; stores the characters used in *len. */
int geo_parse_cell(const struct geometry *g, const char *s, int *len)
{
    const char *p = strchr(file_letters, s[0]);
    if (!s[0] || !p)
        return CELL_NONE;
    int file = (int)(p - file_letters);
    if (file >= g->nfiles || s[1] < '1' || s[1] > '9')
        return CELL_NONE;
    int rank = s[1] - '0', used = 2;
    if (s[2] >= '0' && s[2] <= '9') {
        rank = rank * 10 + (s[2] - '0');
        used = 3;
    }
    if (rank > g->file_len[file])
        return CELL_NONE;
    if (len)
        *len = used;
    return g->file_first[file] + rank - 1;
}

int geo_distance(struct vec a, struct vec b)
{
    int dq = abs(a.q - b.q), dr = abs(a.r - b.r), ds = abs(a.q - b.q + a.r - b.r);
    int m = dq > dr ? dq : dr;
    return m > ds ? m : ds;
}

struct vec geo_rotate(struct vec v, int sixths)
{
    sixths = ((sixths % 6) + 6) % 6;
    for (int i = 0; i < sixths; i++)
        v = (struct vec){ -v.r, v.q + v.r };
    return v;
}

struct vec geo_straight(int dir)
{
    return dir < DIR_DIAG ? geo_orth[dir] : geo_diag[dir - DIR_DIAG];
}

int geo_curved_path(const struct geometry *g, int cell, int dir, int sense, int *cells)
{
    int base = dir < DIR_DIAG ? DIR_ORTH : DIR_DIAG, n = 0;
    int q = g->q[cell], r = g->r[cell];
    for (int k = 0; k < CURVED_MAX_STEPS; k++) {
        struct vec step = geo_straight(base + (((dir - base) + sense * k) % 6 + 6) % 6);
        q += step.q;
        r += step.r;
        int c = geo_cell(g, q, r);
        if (c == CELL_NONE)
            break;
        cells[n++] = c;
    }
    return n;
}

int geo_file_of(const struct geometry *g, int cell)
{
    return g->q[cell] - g->qmin;
}

int geo_rank_of(const struct geometry *g, int cell)
{
    return cell - g->file_first[geo_file_of(g, cell)] + 1;
}

int geo_colour_of(const struct geometry *g, int cell)
{
    return (((g->q[cell] - g->r[cell]) % 3) + 3) % 3;
}

char geo_file_letter(int file)
{
    return file_letters[file];
}
