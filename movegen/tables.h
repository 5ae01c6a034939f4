/* Precomputed tables of one variant at one cell-set width: rays, lines between cells, and every
 * piece type's leap sets and directions per player (width-dependent: see engine/width/instance.c). */
#ifndef TABLES_H
#define TABLES_H

#include "cellset.h"
#include "sums.h"
#include "../rules/variant.h"

/* A pawn's double and triple steps from one cell: one entry per orthogonal step it may repeat and per
 * length, with the cells passed (far: the second, or CELL_NONE on a double step) and the target. */
struct double_step {
    unsigned char n;
    unsigned char mid[12], far[12], to[12];
};

/* Slide or ride directions split for attack generation: whole axes (both ways along one line, one
 * subtraction), and single directions toward higher or lower cell indices. */
struct line_dirs {
    unsigned axes, up, down;
};

/* Which kinds of movement a piece has, so the generator tests one word. */
enum {
    GEN_LEAP_MOVE = 1 << MODE_MOVE, GEN_LEAP_CAPTURE = 1 << MODE_CAPTURE, GEN_LEAP_BOTH = 1 << MODE_BOTH,
    GEN_LINE_MOVE = 1 << (4 + MODE_MOVE), GEN_LINE_CAPTURE = 1 << (4 + MODE_CAPTURE),
    GEN_LINE_BOTH = 1 << (4 + MODE_BOTH),
    GEN_CURVED_MOVE = 1 << (8 + MODE_MOVE), GEN_CURVED_CAPTURE = 1 << (8 + MODE_CAPTURE),
    GEN_CURVED_BOTH = 1 << (8 + MODE_BOTH), GEN_HOP = 1 << 12, GEN_PATH = 1 << 13,
};

struct piece_tables {
    unsigned gen;                   /* GEN_* flags */
    cellset leap[4][MAX_CELLS];     /* leap targets, by mode (MODE_MOVE, MODE_CAPTURE, MODE_BOTH) */
    cellset leap_from[MAX_CELLS];   /* cells from which this piece captures onto the cell by a leap */
    unsigned slide[4], ride[4];     /* straight and root-7 directions, by mode, turned for the player */
    unsigned slide_from, ride_from; /* reversed capturing directions, for attack detection */
    struct line_dirs slides[4], rides[4];
    unsigned curved[4];             /* curved paths by first straight direction, by mode, turned */
    unsigned char curved_steps[2];  /* most steps of orthogonal / diagonal curved paths */
    unsigned hop;                   /* hopping capture directions, turned */
    unsigned path[4][PATH_KINDS];   /* crooked, bent and joined paths by mode and kind: first directions, turned */
    uint32_t partners;              /* Fusion: the types this one fuses with */
    cellset promo_zone;             /* pawns: cells with no further non-capturing step */
    cellset reach[MAX_CELLS];       /* every target on the empty board (hoppers: their lines), which no
                                       board adds to */
    struct double_step dbl[MAX_CELLS];
};

/* Directions grouped by the set of piece types that capture along them (Queen and Rook share the
 * orthogonals), so an attack test looks along each direction once. */
struct line_group {
    unsigned dirs;
    uint32_t types;
    cellset reach[MAX_CELLS];   /* all cells along the group's directions, on an empty board */
};

/* Piece types that capture along curved paths with the same first directions and step limits. */
struct curved_group {
    unsigned dirs;
    unsigned char steps[2];
    uint32_t types;
    cellset reach[MAX_CELLS];   /* cells on their paths back from the cell, on an empty board */
};

/* Piece types that capture along the same crooked, bent and joined paths (first directions by kind). */
struct path_group {
    unsigned dirs[PATH_KINDS];
    uint32_t types;
    cellset *reach;             /* per cell: cells from which the group's paths end on it, empty board */
    cellset *zone;              /* per cell: those cells and every cell their paths pass */
};

/* How one player attacks, derived from its piece types. */
struct attack_groups {
    int nleap, nslide, nride, ncurved, nhop, npath;
    unsigned char leap_type[MAX_TYPES];
    struct line_group slide[NUM_STRAIGHT], ride[NUM_ROOT7], hop[NUM_STRAIGHT];
    struct curved_group curved[MAX_TYPES];
    struct path_group path[MAX_TYPES];
};

/* Exchange evaluation's view of every army at once (attack.c, struct exchange). Lines are numbered
 * straight 0..11 then root-7 12..23; curved paths back from a cell are slots 2 * direction + sense,
 * as in tables.curved_link; tables by piece code (piece_make) spare the split into army and type. */
enum { EXCHANGE_LINES = NUM_STRAIGHT + NUM_ROOT7, EXCHANGE_PIECES = (MAX_TYPES + 1) << 2 };
struct exchange_leap {
    const cellset *from;        /* the type's leap_from */
    int type, player;
};
struct exchange_tables {
    /* The leaping types: first those that leap alike for every army (one entry each), then by army. */
    int nleap, nleap_alike;
    struct exchange_leap leap[MAX_PLAYERS * MAX_TYPES];
    uint32_t line_types;                                /* the types that capture along some line */
    cellset *line_reach;                                /* type x cell: the lines back from the cell that
                                                           the type (of any army) captures along */
    uint32_t line_dirs[EXCHANGE_PIECES];                /* the lines back to a cell the piece captures along */
    uint32_t up;                                        /* lines toward higher cell indices */
    unsigned char *line_of;                             /* ncells x ncells: 1 + the line from the first cell
                                                           that passes the second, or 0 */
    uint32_t curved_types;                              /* the types that capture along curved paths */
    cellset curved_reach[MAX_CELLS];                    /* the cells of those paths back from the cell */
    uint32_t curved_slots[EXCHANGE_PIECES];             /* the paths back along which the piece captures */
    unsigned char curved_fit[EXCHANGE_PIECES][2 * NUM_STRAIGHT]; /* ... from their cell k: bit k */
    bool exotic;                                        /* some army captures along path or hopping moves */
};

/* A curved path from a cell (geo_curved_path): its cells in order, and the sets of its first k + 1
 * cells, so a generator tests a whole path against the occupancy at once and walks the list only
 * on a hit. */
struct curved_ray {
    unsigned char len;
    unsigned char cell[CURVED_MAX_STEPS];
    cellset prefix[CURVED_MAX_STEPS];
};

/* One move along a crooked, bent or joined path (geo_path_moves), back from its target: the cells it
 * passes, which must be empty, and the mover's cell. */
struct path_move {
    cellset passed;
    unsigned char from, kind, dir;
};

/* A cell's moves of one path kind and first direction: those passing no cell, and those passing the
 * first cell, which a piece there blocks all at once. Past it the moves split into one chain per side
 * (both turns of a zigzag, both slides of a bent or joined path): cells[s], in order
 * tb->chain_cell[at[s] ...], each taken one ending every move past it. Side s's targets before its
 * e-th cell are one set, tb->chain_to[at[s] + e] (side 0's hold those of the moves passing the first
 * cell alone too), and its cells up to that one another, tb->chain_seen[at[s] + e]. */
struct path_range {
    cellset free_to;
    cellset cells[2];
    uint32_t at[2];
    unsigned char len[2], first;
};

/* A castling rule's cells (variant.h): those that must be empty (between the royal and the rook, and
 * both targets, less the two pieces' own cells) and those the royal crosses on its way. */
struct castle_cells {
    cellset empty, cross;
};

struct tables {
    const struct variant *v;
    /* The weights of the sums positions keep (sums.h), which the evaluation sets: psq.value NULL for
     * no psq sums, features NULL for no accumulators. */
    struct psq_weights psq;
    uint32_t pawn_types;                    /* the variant's pawn types, whose cells make the pawn key */
    const struct feature_weights *features;
    int ncells;
    cellset bit[MAX_CELLS];
    cellset all;
    cellset ray[MAX_CELLS][NUM_STRAIGHT];   /* cells along a straight direction, to the edge */
    cellset ride[MAX_CELLS][NUM_ROOT7];     /* landing cells of repeated root-7 leaps */
    unsigned straight_up, root7_up;         /* directions that walk to higher cell indices */
    cellset *between;                       /* ncells x ncells: cells strictly between on a line */
    struct curved_ray (*curved)[NUM_STRAIGHT][2]; /* per cell, start direction, turn sense (0: +1, 1: -1) */
    uint32_t *curved_link;                  /* ncells x ncells: the curved paths from the first cell (bit
                                               2 * direction + sense) that pass the second */
    /* Crooked, bent and joined paths of the kinds and first directions the variant's pieces use (NULL
     * without any): forward by cell, kind and direction as chains, and every move back, by target cell. */
    struct path_range (*path_at)[PATH_KINDS][NUM_STRAIGHT];
    unsigned char *chain_cell;
    cellset *chain_to, *chain_seen;
    struct path_move *paths_back;
    uint32_t *path_back_at;                 /* ncells^2 + 1: the moves from p to c are [at[c n + p], at[c n + p + 1]) */
    struct piece_tables pt[MAX_PLAYERS][MAX_TYPES];
    uint32_t movers[MAX_PLAYERS];           /* the types of the player's army but its royal */
    struct attack_groups attack[MAX_PLAYERS];
    struct exchange_tables exchange;
    struct castle_cells castle[MAX_PLAYERS][MAX_CASTLES];
    unsigned castle_touch[MAX_CELLS];       /* castling rights lost when a piece leaves or lands on the cell */
};

#endif
