/* Hex board geometry: directions, board shapes, cell order, names, colours, curved and other paths. */
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

enum { SPAN = 2 * MAX_COORD + 1 };

/* A board being laid out: each cell's name by coordinates [q + 9][r + 9], "" off the board. */
typedef char board_names[SPAN][SPAN][CELL_NAME_LEN];

static bool on_shape(enum board_shape shape, int radius, int q, int r)
{
    int s = -q - r;
    if (shape == SHAPE_HEXAGON)
        return abs(q) <= radius && abs(r) <= radius && abs(s) <= radius;
    /* Star of David: the union of two big triangles. */
    return (q >= -3 && r >= -3 && s >= -3) || (q <= 3 && r <= 3 && s <= 3);
}

static void name_cell(char *name, char letter, int rank)
{
    name[0] = letter;
    if (rank < 10) {
        name[1] = (char)('0' + rank);
    } else {
        name[1] = (char)('0' + rank / 10);
        name[2] = (char)('0' + rank % 10);
    }
}

/* Numbers the named cells in (q, r) order and fills every table of g from them; false when they take
 * more than MAX_FILES columns. */
static bool lay_out(struct geometry *g, enum board_shape shape, int size, board_names names)
{
    struct geometry t;
    memset(&t, 0, sizeof t);
    memset(t.index_of, CELL_NONE, sizeof t.index_of);
    memset(t.by_name, CELL_NONE, sizeof t.by_name);
    t.shape = shape;
    t.size = size;
    int n = 0, qmax = -SPAN, rmin = SPAN, rmax = -SPAN;
    t.qmin = SPAN;
    for (int q = -MAX_COORD; q <= MAX_COORD; q++)
        for (int r = -MAX_COORD; r <= MAX_COORD; r++) {
            const char *name = names[q + MAX_COORD][r + MAX_COORD];
            if (!name[0])
                continue;
            if (t.qmin == SPAN)
                t.qmin = q;
            int column = q - t.qmin;
            if (column >= MAX_FILES)
                return false;
            if (!t.file_len[column]++)
                t.file_first[column] = n;
            t.nfiles = column + 1;
            t.q[n] = q;
            t.r[n] = r;
            memcpy(t.name[n], name, CELL_NAME_LEN);
            t.index_of[q + MAX_COORD][r + MAX_COORD] = (unsigned char)n;
            t.by_name[name[0] - 'a'][atoi(name + 1)] = (unsigned char)n;
            int d = geo_distance((struct vec){ q, r }, (struct vec){ 0, 0 });
            t.radius = d > t.radius ? d : t.radius;
            qmax = q, rmin = r < rmin ? r : rmin, rmax = r > rmax ? r : rmax;
            n++;
        }
    t.ncells = n;
    t.twice_centre = (struct vec){ t.qmin + qmax, rmin + rmax };
    *g = t;
    return true;
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
    /* Glinski's names: files lettered from the smallest q, ranks counted up each file from 1. */
    board_names names = { 0 };
    for (int q = -radius; q <= radius; q++)
        for (int r = -radius, rank = 0; r <= radius; r++)
            if (on_shape(shape, radius, q, r))
                name_cell(names[q + MAX_COORD][r + MAX_COORD], file_letters[q + radius], ++rank);
    return lay_out(g, shape, shape == SHAPE_HEXAGON ? size : 0, names);
}

static int floor_half(int x)
{
    return x >= 0 ? x / 2 : -((1 - x) / 2);
}

bool geo_init_files(struct geometry *g, struct vec file_step, struct vec rank_step, const struct board_file *files,
                    int nfiles)
{
    struct vec at[MAX_CELLS];
    char letter[MAX_CELLS];
    int rank[MAX_CELLS], n = 0;
    for (int i = 0; i < nfiles; i++) {
        const struct board_file *f = &files[i];
        if (f->letter < 'a' || f->letter > 'z' || f->first < 1 || f->first > f->last || f->last > MAX_RANK)
            return false;
        for (int j = 0; j < i; j++)
            if (files[j].letter == f->letter)
                return false;
        for (int k = f->first; k <= f->last; k++) {
            if (n == MAX_CELLS)
                return false;
            at[n] = (struct vec){ i * file_step.q + k * rank_step.q, i * file_step.r + k * rank_step.r };
            letter[n] = f->letter, rank[n++] = k;
        }
    }
    if (!n)
        return false;
    /* Centre the cells' span on (0, 0). */
    struct vec lo = at[0], hi = at[0];
    for (int c = 1; c < n; c++) {
        lo = (struct vec){ at[c].q < lo.q ? at[c].q : lo.q, at[c].r < lo.r ? at[c].r : lo.r };
        hi = (struct vec){ at[c].q > hi.q ? at[c].q : hi.q, at[c].r > hi.r ? at[c].r : hi.r };
    }
    struct vec shift = { floor_half(lo.q + hi.q), floor_half(lo.r + hi.r) };
    board_names names = { 0 };
    for (int c = 0; c < n; c++) {
        int q = at[c].q - shift.q, r = at[c].r - shift.r;
        if (abs(q) > MAX_COORD || abs(r) > MAX_COORD)
            return false;
        char *name = names[q + MAX_COORD][r + MAX_COORD];
        if (name[0])
            return false;  /* two files over one cell */
        name_cell(name, letter[c], rank[c]);
    }
    return lay_out(g, SHAPE_FILES, 0, names);
}

int geo_cell(const struct geometry *g, int q, int r)
{
    if (q < -MAX_COORD || q > MAX_COORD || r < -MAX_COORD || r > MAX_COORD)
        return CELL_NONE;
    return g->index_of[q + MAX_COORD][r + MAX_COORD];
}

/* Reads a cell name at s (a letter, then a rank of one or two digits); stores the characters used in *len. */
int geo_parse_cell(const struct geometry *g, const char *s, int *len)
{
    if (s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
        return CELL_NONE;
    int rank = s[1] - '0', used = 2;
    if (s[2] >= '0' && s[2] <= '9') {
        rank = rank * 10 + (s[2] - '0');
        used = 3;
    }
    /* A geometry never laid out (all zero) has no cells. */
    int cell = g->by_name[s[0] - 'a'][rank];
    if (cell >= g->ncells)
        return CELL_NONE;
    if (len)
        *len = used;
    return cell;
}

bool geo_same(const struct geometry *a, const struct geometry *b)
{
    return a->ncells == b->ncells && !memcmp(a->q, b->q, sizeof a->q) && !memcmp(a->r, b->r, sizeof a->r)
           && !memcmp(a->name, b->name, sizeof a->name);
}

int geo_distance(struct vec a, struct vec b)
{
    int dq = abs(a.q - b.q), dr = abs(a.r - b.r), ds = abs(a.q - b.q + a.r - b.r);
    int m = dq > dr ? dq : dr;
    return m > ds ? m : ds;
}

int geo_centre_distance(const struct geometry *g, int cell)
{
    struct vec twice = { 2 * g->q[cell], 2 * g->r[cell] };
    return geo_distance(twice, g->twice_centre) / 2;
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

/* The straight direction k sixths of a turn from dir, of the same kind (orthogonal or diagonal). */
static int dir_turn(int dir, int k)
{
    int base = dir < DIR_DIAG ? DIR_ORTH : DIR_DIAG;
    return base + ((dir - base + k) % 6 + 6) % 6;
}

/* The direction of the other kind 30 degrees from dir, counter-clockwise (side +1) or clockwise: Di lies
 * between Oi and O(i+1). */
static int dir_half_turn(int dir, int side)
{
    if (dir < DIR_DIAG)
        return DIR_DIAG + (side > 0 ? dir : (dir + 5) % 6);
    return side > 0 ? (dir - DIR_DIAG + 1) % 6 : dir - DIR_DIAG;
}

static int step_to(const struct geometry *g, int cell, int dir)
{
    struct vec u = geo_straight(dir);
    return geo_cell(g, g->q[cell] + u.q, g->r[cell] + u.r);
}

/* Adds a move unless the same target over the same cells is there already (a path and its mirror). */
static int path_add(struct geo_path *out, int n, int to, const unsigned char *passed, int npassed)
{
    for (int i = 0; i < n; i++)
        if (out[i].to == to && out[i].npassed == npassed && !memcmp(out[i].passed, passed, (size_t)npassed))
            return n;
    if (n == GEO_PATH_MOVES || npassed >= GEO_PATH_CELLS)
        abort(); /* beyond any board's longest path: a bug, not input */
    out[n] = (struct geo_path){ .to = (unsigned char)to, .npassed = (unsigned char)npassed };
    memcpy(out[n].passed, passed, (size_t)npassed);
    return n + 1;
}

/* A slide from `from` along dir, each cell a move over the cells before it (after `passed`). */
static int path_slide(const struct geometry *g, int from, int dir, unsigned char *passed, int npassed,
                      struct geo_path *out, int n)
{
    for (int c = step_to(g, from, dir); c != CELL_NONE; c = step_to(g, c, dir)) {
        n = path_add(out, n, c, passed, npassed);
        passed[npassed++] = (unsigned char)c;
    }
    return n;
}

int geo_path_moves(const struct geometry *g, int cell, int kind, int dir, struct geo_path *out)
{
    unsigned char passed[GEO_PATH_CELLS];
    int n = 0, first = step_to(g, cell, dir);
    if (first == CELL_NONE)
        return 0;
    for (int side = -1; side <= 1; side += 2) {
        if (kind == PATH_LONG || kind == PATH_SHORT) {
            int other = dir_turn(dir, side * (kind == PATH_LONG ? 1 : 2)), np = 0;
            for (int k = 0, c = first; c != CELL_NONE; c = step_to(g, c, ++k % 2 ? other : dir)) {
                n = path_add(out, n, c, passed, np);
                passed[np++] = (unsigned char)c;
            }
        } else if (kind == PATH_BENT) {
            n = path_add(out, n, first, passed, 0);
            passed[0] = (unsigned char)first;
            n = path_slide(g, first, dir_half_turn(dir, side), passed, 1, out, n);
        } else {
            int slide = dir_half_turn(dir, side), np = 1;
            passed[0] = (unsigned char)first;
            for (int c = first; c != CELL_NONE; c = step_to(g, c, slide)) {
                passed[np - 1] = (unsigned char)c;
                for (int last = -1; last <= 1; last += 2) {
                    int to = step_to(g, c, dir_half_turn(slide, last));
                    if (to != CELL_NONE)
                        n = path_add(out, n, to, passed, np);
                }
                np++;
            }
        }
    }
    return n;
}

int geo_path_reach(const struct geometry *g, int cell, const unsigned dirs[PATH_KINDS], bool reach[MAX_CELLS])
{
    struct geo_path moves[GEO_PATH_MOVES];
    int fresh = 0;
    for (int k = 0; k < PATH_KINDS; k++)
        for (int d = 0; d < NUM_STRAIGHT; d++)
            for (int i = 0, n = dirs[k] >> d & 1 ? geo_path_moves(g, cell, k, d, moves) : 0; i < n; i++) {
                fresh += !reach[moves[i].to];
                reach[moves[i].to] = true;
            }
    return fresh;
}

int geo_colour_of(const struct geometry *g, int cell)
{
    return (((g->q[cell] - g->r[cell]) % 3) + 3) % 3;
}
