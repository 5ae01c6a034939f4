/* Hex board geometry: axial coordinates, board shapes, cell indices and names (docs/geometry.md). */
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include <stdbool.h>

enum {
    MAX_CELLS = 256,      /* largest board: hexagon of side 9 has 217 cells */
    MAX_FILES = 17,       /* columns of constant q, the FEN's files */
    MAX_COORD = 9,        /* every cell has |q|, |r| <= MAX_COORD */
    MAX_RANK = 99,        /* cell names have one or two digits */
    CELL_NONE = 255,
    CELL_NAME_LEN = 4,    /* "q17" plus terminator */
};

/* Twelve straight directions: 0..5 orthogonal O0..O5, 6..11 diagonal D0..D5 (board.md). */
enum { DIR_ORTH = 0, DIR_DIAG = 6, NUM_STRAIGHT = 12, NUM_ROOT7 = 12 };

/* SHAPE_FILES: any cell set, given file by file with the game's own cell names (geometry.md). */
enum board_shape { SHAPE_HEXAGON, SHAPE_STAR, SHAPE_FILES };

struct vec { int q, r; };

/* One named file of a SHAPE_FILES board: cells letter+first .. letter+last. */
struct board_file { char letter; int first, last; };

/* A board: cells ordered by (q, r), which is FEN order and makes every straight line monotonic. */
struct geometry {
    enum board_shape shape;
    int size;                   /* hexagon: side length; star: 0 */
    int ncells;
    int nfiles;                 /* columns of constant q (FEN files) */
    int qmin;                   /* q of the first column */
    int radius;                 /* largest distance of a cell from (0, 0) */
    struct vec twice_centre;    /* a cell (q, r) turned half a turn about the board's centre is twice_centre - (q, r) */
    int file_first[MAX_FILES];  /* index of each column's lowest cell */
    int file_len[MAX_FILES];
    int q[MAX_CELLS], r[MAX_CELLS];
    char name[MAX_CELLS][CELL_NAME_LEN];
    unsigned char index_of[2 * MAX_COORD + 1][2 * MAX_COORD + 1]; /* [q + 9][r + 9] -> cell or CELL_NONE */
    unsigned char by_name[26][MAX_RANK + 1];                      /* [letter - 'a'][rank] -> cell or CELL_NONE */
};

extern const struct vec geo_orth[6];
extern const struct vec geo_diag[6];
extern const struct vec geo_root7[12];

/* Returns false (and leaves g untouched) for an unknown shape or size. */
bool geo_init(struct geometry *g, enum board_shape shape, int size);
/* A SHAPE_FILES board: file i's cell of rank k lies at i * file_step + k * rank_step, the whole set
 * centred on (0, 0). Returns false (g untouched) when the cells do not fit (more than MAX_CELLS, or
 * more than MAX_FILES columns, or coordinates beyond MAX_COORD) or two files share a letter. */
bool geo_init_files(struct geometry *g, struct vec file_step, struct vec rank_step, const struct board_file *files,
                    int nfiles);
bool geo_same(const struct geometry *a, const struct geometry *b);
int geo_cell(const struct geometry *g, int q, int r);     /* CELL_NONE when off the board */
int geo_parse_cell(const struct geometry *g, const char *s, int *len);
int geo_distance(struct vec a, struct vec b);
/* Steps from the board's centre (twice_centre / 2, between cells on some boards), rounded down: the
 * same for cells that any symmetry of the board exchanges. */
int geo_centre_distance(const struct geometry *g, int cell);
struct vec geo_rotate(struct vec v, int sixths);           /* counter-clockwise by sixths * 60 degrees */
struct vec geo_straight(int dir);                          /* unit vector of a straight direction */
enum { CURVED_MAX_STEPS = 5 };
/* The cells of a curved path (pieces.md, cR/cB): first step along straight direction dir, each
 * further step turned 60 degrees by sense (+1 counter-clockwise, -1 clockwise), at most
 * CURVED_MAX_STEPS, ending at the edge. Returns the number of cells written. */
int geo_curved_path(const struct geometry *g, int cell, int dir, int sense, int *cells);
int geo_colour_of(const struct geometry *g, int cell);     /* (q - r) mod 3 */

/* Paths of Gilman's substitute pieces (variant-format.md, crooked, bent and joined atoms): from a
 * first step along straight direction d, crooked zigzags turning 60 (PATH_LONG) or 120 degrees
 * (PATH_SHORT) left and right by turns, a step then a slide 30 degrees from it (PATH_BENT), or a step,
 * an optional slide 30 degrees from it and a step 30 degrees from that (PATH_JOINED). */
enum path_kind { PATH_LONG, PATH_SHORT, PATH_BENT, PATH_JOINED, PATH_KINDS };
enum { GEO_PATH_CELLS = 40, GEO_PATH_MOVES = 128 };
/* One move along a path: its target and the cells it passes, which must be empty. */
struct geo_path {
    unsigned char to, npassed;
    unsigned char passed[GEO_PATH_CELLS];
};
/* Every distinct move of the kind whose first step is along straight direction dir; returns how many. */
int geo_path_moves(const struct geometry *g, int cell, int kind, int dir, struct geo_path *out);
/* Marks the targets of the paths (of every kind, first directions dirs[kind]) from the cell on the
 * empty board; returns how many were not marked before. */
int geo_path_reach(const struct geometry *g, int cell, const unsigned dirs[PATH_KINDS], bool reach[MAX_CELLS]);

#endif
