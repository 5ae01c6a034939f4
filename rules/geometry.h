/* Hex board geometry: axial coordinates, board shapes, cell indices and names (shared/spec/board.md). */
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include <stdbool.h>

enum {
    MAX_CELLS = 256,      /* largest board: hexagon of side 9 has 217 cells */
    MAX_FILES = 17,
    CELL_NONE = 255,
    CELL_NAME_LEN = 4,    /* "q17" plus terminator */
};

/* Twelve straight directions: 0..5 orthogonal O0..O5, 6..11 diagonal D0..D5 (board.md). */
enum { DIR_ORTH = 0, DIR_DIAG = 6, NUM_STRAIGHT = 12, NUM_ROOT7 = 12 };

enum board_shape { SHAPE_HEXAGON, SHAPE_STAR };

struct vec { int q, r; };

/* A board: cells ordered by (q, r), which is FEN order and makes every straight line monotonic. */
struct geometry {
    enum board_shape shape;
    int size;                   /* hexagon: side length; star: 0 */
    int ncells;
    int nfiles;
    int qmin;                   /* q of file a */
    int radius;                 /* largest |q|, |r| or |s| on the board */
    int file_first[MAX_FILES];  /* index of each file's rank-1 cell */
    int file_len[MAX_FILES];
    int q[MAX_CELLS], r[MAX_CELLS];
    char name[MAX_CELLS][CELL_NAME_LEN];
    unsigned char index_of[2 * 9 + 1][2 * 9 + 1]; /* [q + 9][r + 9] -> cell or CELL_NONE */
};

extern const struct vec geo_orth[6];
extern const struct vec geo_diag[6];
extern const struct vec geo_root7[12];

/* Returns false (and leaves g untouched) for an unknown shape or size. */
bool geo_init(struct geometry *g, enum board_shape shape, int size);
int geo_cell(const struct geometry *g, int q, int r);     /* CELL_NONE when off the board */
int geo_parse_cell(const struct geometry *g, const char *s, int *len);
int geo_distance(struct vec a, struct vec b);
struct vec geo_rotate(struct vec v, int sixths);           /* counter-clockwise by sixths * 60 degrees */
struct vec geo_straight(int dir);                          /* unit vector of a straight direction */
enum { CURVED_MAX_STEPS = 5 };
/* The cells of a curved path (pieces.md, cR/cB): first step along straight direction dir, each
 * further step turned 60 degrees by sense (+1 counter-clockwise, -1 clockwise), at most
 * CURVED_MAX_STEPS, ending at the edge. Returns the number of cells written. */
int geo_curved_path(const struct geometry *g, int cell, int dir, int sense, int *cells);
int geo_file_of(const struct geometry *g, int cell);
int geo_rank_of(const struct geometry *g, int cell);       /* 1-based */
int geo_colour_of(const struct geometry *g, int cell);     /* (q - r) mod 3 */
char geo_file_letter(int file);

#endif
