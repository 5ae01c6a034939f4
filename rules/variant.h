/* A variant is data: board, players, piece types built from movement atoms, rules (docs/variant-format.md). */
#ifndef VARIANT_H
#define VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"

enum {
    MAX_PLAYERS = 4,
    MAX_TYPES = 24,
    MAX_LEAPS = 64,
    MAX_VARIANTS = 64,
    NAME_LEN = 32,
    MAX_CASTLES = 4,      /* castling rules per player */
    FUSION_PAIRS = 2,     /* pairs that may form one compound */
    PIECE_DESCRIPTION_LEN = 200, /* a piece's description, its terminating 0 included */
};

enum orientation { ORIENT_GLINSKI, ORIENT_WELLISCH };

/* How a turn ends up once resolved (docs/variants.md, three-player rules; movegen/width/turns.c): the army
 * to move plays, the last army left has won, or the army to move is stalemated. */
enum turn_end { TURN_PLAYS, TURN_LAST_ARMY, TURN_STALEMATE };

/* How a movement component may be used. */
enum { MODE_MOVE = 1, MODE_CAPTURE = 2, MODE_BOTH = 3 };

/* start: only from the player's double- and triple-step cells (a pawn's start cells). */
struct leap { signed char dq, dr; unsigned char mode; bool start; };

/* A piece type, written for the first player; other players get it rotated (docs/geometry.md). */
struct piece_def {
    char name[NAME_LEN];
    char letter;                 /* upper case */
    int nleaps;
    struct leap leaps[MAX_LEAPS];
    unsigned slide[4];           /* by mode: bit d = straight direction d (geometry.h) */
    unsigned ride[4];            /* by mode: bit d = root-7 direction d */
    unsigned curved[4];          /* by mode: bit d = curved path whose first step is straight direction d */
    unsigned char curved_steps[2]; /* most steps of a curved orthogonal / diagonal move (1..5) */
    unsigned path[PATH_KINDS][4]; /* crooked, bent, joined (geometry.h): by kind and mode, bit d = first
                                   * step along straight direction d */
    unsigned hop;                /* straight directions of hopping captures (hR, hB) */
    bool royal;
    bool pawn;                   /* promotes, resets the 100-ply counter */
    bool double_step;            /* two (three from triple-step cells) move-only steps in a line */
    unsigned char double_dirs;   /* orthogonal directions (bit d = O d) a double step may take */
    bool centreward;             /* its leaps never move it away from the central file */
    bool en_passant;             /* can take and be taken en passant */
    bool blocked;                /* on a start cell, an enemy on a cell its move steps reach stops every
                                  * non-capturing move (Brusky) */
    unsigned char army;          /* the army it belongs to (variant.army) */
    double value;                /* in pawns, from the variant's `values`; 0: derived (eval/values.c) */
    char description[PIECE_DESCRIPTION_LEN]; /* how it moves, in words (`piece-description`); "" if none */
};

/* Castling (variants.md): the royal on `royal` and the piece on `rook` pass each other along one
 * orthogonal line to `royal_to` (the target nearer the rook) and `rook_to`. */
struct castle_rule {
    unsigned char royal, rook, royal_to, rook_to;
};

struct variant {
    char name[NAME_LEN];
    char description[128];
    char parent[NAME_LEN];
    struct geometry geo;
    enum orientation orientation;
    int nplayers;
    int rotation[MAX_PLAYERS];   /* sixths of a turn applied to each player's moves (its army's as written) */
    char colour_letter[MAX_PLAYERS];
    /* Different armies (four players): each player's army; the pieces, promotion list and start cells of
     * an army are written for its first player, in the army's orientation (army 0's is `orientation`). */
    int narmies;
    int army[MAX_PLAYERS];
    enum orientation army_orientation[MAX_PLAYERS];
    int ntypes;
    struct piece_def piece[MAX_TYPES];
    int npromo;
    int promo[MAX_TYPES];        /* piece types a pawn may become */
    int promo_limit;             /* a promotion may not make more than this many of a type; 0: no limit */
    /* Fusion (Mishling Fusion): two simple types that fuse, and the compound's components. A compound
     * that two pairs form (the Duchess of R+U and of W+X) divides into either pair. */
    unsigned char fuse[MAX_TYPES][MAX_TYPES]; /* compound type + 1, or 0 where the pair does not fuse */
    unsigned char component[MAX_TYPES][2 * FUSION_PAIRS]; /* a compound's pairs of simple types + 1, each pair
                                                            * in type order; 0 after the last; 0 first: simple */
    /* The most steps a pawn's first move takes in one line from the cell: 2 (double-step cells) or 3
     * (triple-step cells, which allow two as well); 0 where it makes one step only. */
    unsigned char double_cell[MAX_PLAYERS][MAX_CELLS];
    /* The only pawn type (+ 1) whose double step a cell gives (`double-step-of`); 0: every pawn type's. */
    unsigned char double_kind[MAX_PLAYERS][MAX_CELLS];
    int ncastles;                /* castling rules per player, the first player's given, the others derived */
    struct castle_rule castle[MAX_PLAYERS][MAX_CASTLES];
    char start_fen[1024];
    int stalemate_num, stalemate_den; /* score of the player who stalemates */
    uint64_t fingerprint;        /* hash of the definition text */
    /* Zobrist keys, derived from names so they survive reordering (zobrist.c). The piece keys, by far
     * the largest, are rows of one block sized to the variant's players, types and cells, made when it is
     * registered (zobrist_init): a parsed section stays small enough for malloc to reuse its memory. */
    const uint64_t *key_piece[MAX_PLAYERS][MAX_TYPES];
    uint64_t *keys;              /* the block of key_piece's rows */
    uint64_t key_side[MAX_PLAYERS];
    uint64_t key_ep[MAX_CELLS];
    uint64_t key_castle[MAX_PLAYERS][MAX_CASTLES];
};

/* Piece codes in a mailbox: 0 is empty. */
static inline int piece_make(int colour, int type) { return ((type + 1) << 2) | colour; }
static inline int piece_type(int piece) { return (piece >> 2) - 1; }
static inline int piece_colour(int piece) { return piece & 3; }

/* Parses definitions from text. Errors go to err as "line N: ..." lines; returns how many variants
 * were defined, or -1 (and adds nothing) on any error. */
int variant_parse(const char *text, const char *origin, struct variant **out, int max,
                  const struct variant *const *known, int nknown, char *err, size_t errlen);
/* Frees a variant of variant_parse and its keys. */
void variant_free(struct variant *v);

/* A castling right is one bit per player and rule, in positions and FENs. */
static inline unsigned castle_bit(int player, int rule) { return 1u << (player * MAX_CASTLES + rule); }
static inline unsigned castle_bits_of(int player) { return ((1u << MAX_CASTLES) - 1) << (player * MAX_CASTLES); }

/* The type of the letter in the army's pieces (army 0's for variant_type_of_letter), or -1. */
int variant_army_type(const struct variant *v, int army, char letter);
static inline int variant_type_of_letter(const struct variant *v, char letter) { return variant_army_type(v, 0, letter); }
/* How many steps a piece of the type makes at most from the player's cell in its first move's line: 2 or 3
 * on the type's double- and triple-step cells, else 0. */
static inline int variant_double_steps(const struct variant *v, int player, int type, int cell)
{
    int kind = v->double_kind[player][cell];
    return !kind || kind == type + 1 ? v->double_cell[player][cell] : 0;
}
/* The type that stays when a component leaves the compound alone (fission): its partner in its pair. */
static inline int variant_fission_stays(const struct variant *v, int compound, int part)
{
    const unsigned char *c = v->component[compound];
    int i = 0;
    while (c[i] != part + 1)
        i++;
    return c[i ^ 1] - 1;
}
static inline bool variant_is_compound(const struct variant *v, int type) { return v->component[type][0] != 0; }
/* The player's royal type. */
int variant_royal_type(const struct variant *v, int player);
/* The first player of the player's army, whose cells the army's start cells are written for. */
int variant_army_first(const struct variant *v, int player);
/* Cell that a player's cell maps to for another player under the variant's symmetry. */
int variant_map_cell(const struct variant *v, int cell, int player);

#endif
