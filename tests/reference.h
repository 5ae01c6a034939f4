/* A slow, plainly written move generator on the mailbox, straight from the rules as docs/variants.md
 * words them (curved paths, hops, divergent pieces, centreward leaps and promotion limits included;
 * Fusion's fusions, fissions and component limits; castling): the tests compare the engine's bitboard
 * generator against it. It shares only the variant's rule data (board, players, letters, royal and pawn
 * flags, promotion, double-step cells, fusions, castling rules), the geometry and FEN parsing with the
 * engine: the pieces of the built-in variants move as its own table says (reference_pieces.c), not as
 * variants.ini says, so that a wrong line there fails the comparison; where a built-in variant's rule
 * says which pawns have the double step (Trios armies: those starting behind one of their own kind), the
 * reference finds them from that rule and the start position, not from the variant's cell lists.
 * Three players (variants.md, "Three-player rules"): reference_moves and reference_make work on the
 * position as it stands; reference_resolve applies the turn resolution (eliminations) and
 * reference_perft resolves at every node. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "../rules/move.h"
#include "../rules/setup.h"

enum { REFERENCE_MAX_MOVES = MAX_MOVES, REFERENCE_TEXT_LEN = 16 };

/* A piece's movement in the reference's own words, for the first player: a list of atoms, each one kind
 * of motion along a list of axial vectors (docs/geometry.md), turned for the other players by the variant. */
enum reference_motion {
    REF_END,   /* ends the list of atoms */
    REF_LEAP,  /* to the cell `reach` times the vector away, never blocked */
    REF_START_LEAP, /* a leap from the variant's double-step (start) cells only */
    REF_SLIDE, /* the vector repeated through empty cells, ending on any of them or on the first piece met */
    REF_CURVE, /* a curved path: the vector first, each further step turned 60 degrees the same way (both
                * ways are paths), at most `reach` steps through empty cells, ending as a slide does */
    REF_HOP,   /* captures only: along the vector over exactly one piece of any colour, taking the first
                * piece beyond it if it is an enemy */
    REF_CROOKED, /* a crooked path: the vector, then the vector turned `reach` sixths of a turn one way, then
                  * the vector again, and so on (both ways are paths), through empty cells to the edge,
                  * ending as a slide does */
    REF_BENT,  /* one step along the vector, ending there as a leap does or, that cell empty, sliding on
                * along either direction 30 degrees from it */
    REF_JOINED, /* one step along the vector to an empty cell, none or more steps along either direction
                 * 30 degrees from it through empty cells, then one step 30 degrees from that slide,
                 * ending there as a leap does */
};

/* REFERENCE_ATOMS leaves room for any piece a variant file can define (leaps of three modes, slides,
 * rides, curved paths of two step limits, hops, four kinds of crooked, bent and joined paths: at most
 * 31 atoms of REFERENCE_DIRS vectors). */
enum { REFERENCE_DIRS = 12, REFERENCE_ATOMS = 32, REFERENCE_DOUBLE_DIRS = 6 };

struct reference_atom {
    enum reference_motion motion;
    unsigned char mode;               /* MODE_MOVE, MODE_CAPTURE or MODE_BOTH */
    int reach;                        /* REF_LEAP: steps along the vector; REF_CURVE: most steps */
    struct vec dir[REFERENCE_DIRS];   /* ends at the first zero vector */
};

struct reference_piece {
    const char *name;
    struct reference_atom atom[REFERENCE_ATOMS];      /* ends at the first REF_END */
    /* A pawn's double step: two move steps in one line along one of these, from the variant's
     * double-step cells; the list ends at the first zero vector. */
    struct vec double_step[REFERENCE_DOUBLE_DIRS];
    bool en_passant;  /* its double step may be taken en passant, and it takes en passant */
    bool centreward;  /* its leaps never take it away from the central file (q = 0) */
    bool blocked;     /* on a start cell, an enemy on a cell it could step to forbids it every move that
                       * captures nothing */
};

/* The movement of the piece with the letter in the army of the built-in variant (reference_pieces.c),
 * or NULL for a variant, army or letter the table does not have. */
const struct reference_piece *reference_piece_of(const char *variant, int army, char letter);
/* Whether the army of the built-in variant gives the double step only to pawns that start directly behind
 * one of their own kind (seed 003's Trios rule) rather than from its double-step cells. */
bool reference_double_behind(const char *variant, int army);

/* The legal moves as text ("f5f6", "f10f11q", a fission "e1e5r"), sorted by strcmp and without
 * duplicates. */
int reference_moves(const struct variant *v, const struct setup *s, char out[][REFERENCE_TEXT_LEN]);
/* Plays a legal move given as text; returns false (s unchanged) if it is not legal. */
bool reference_make(const struct variant *v, struct setup *s, const char *text);
/* Leaf count. Three players: at every node the turn resolution first, then the legal moves of whoever is
 * to move after it; a node where the game ended (last army standing, stalemate) has no moves, so it
 * counts 0 at depth >= 1 (and 1 at depth 0, like any node). */
uint64_t reference_perft(const struct variant *v, const struct setup *s, int depth);
/* Whether the piece on `from` could capture the enemy piece on the cell (pseudo-legally, by its own
 * movement: leaps, slides, rides, curved paths, hops, crooked, bent and joined paths). */
bool reference_captures(const struct variant *v, const struct setup *s, int from, int cell);
/* Whether the player's royal piece is attacked. */
bool reference_in_check(const struct variant *v, const struct setup *s, int player);
/* Whether a FEN of this position is accepted: the army that just moved (the previous one in turn order
 * still on the board) is not in check. */
bool reference_fen_accepted(const struct variant *v, const struct setup *s);

/* What the turn resolution did. */
struct reference_resolution {
    int neliminated;
    int eliminated[MAX_PLAYERS]; /* colours of the armies taken off the board, in order */
    bool no_move[MAX_PLAYERS];   /* eliminated[i] was to move with no legal move in check (otherwise the
                                  * player to move attacked its royal: capture-threat) */
    int winner;                  /* the last army on the board (two players: the mating side), or -1 */
    bool stalemate;              /* the player to move has no legal move and is not in check */
};

/* The resolution before a turn (variants.md, "Order of resolution before each turn"), three or four players:
 * armies whose royal the player to move attacks leave the board (repeated); one army left wins; a player
 * to move with no legal move in check leaves and the next army on the board moves in the same position
 * (all again); without a move and not in check it is stalemated. Eliminations are not plies: the clocks
 * and the en-passant cell stay, so the army that now makes the next ply may take en passant; the cell is
 * cleared only when the pawn that passed it has left the board (the game is then over). Changes s (pieces
 * removed, side to move); returns whether the game goes on. Two players: s is unchanged; no legal move is
 * mate (winner: the other side) or stalemate. */
bool reference_resolve(const struct variant *v, struct setup *s, struct reference_resolution *r);
/* Whether a pawn-like type of the player standing on the cell would have to promote there. */
bool reference_in_zone(const struct variant *v, int player, int type, int cell);

/* What generating the pseudo-legal moves of the side to move met, for the tests' coverage checks. */
struct reference_stats {
    long curved_stops[CURVED_MAX_STEPS + 1]; /* curved paths ended by a piece at step k (1..5) */
    long curved_captures;
    long path_blocked;          /* crooked, bent and joined paths cut short by a piece on a cell they pass */
    long path_captures;
    long hop_captures[2];       /* over a screen of the mover's colour [0] / of another colour [1] */
    long divergent_captures;    /* by a capture-only slide or curved atom of a non-pawn (Waitress, Shammes) */
    long centreward_refused;    /* leaps on the board that would take a centreward piece off-centre */
    long centreward_central;    /* moves of a centreward piece standing on the central file */
    long promotions_refused;    /* promotion types not offered because of the variant's limit */
    long promotions_blocked;    /* pawn moves dropped because the limit left no type */
    long promotions_refused_inside; /* refused types whose own pieces are under the limit (compounds) */
    long fusions;               /* a simple piece's usual move reaching a friendly simple partner */
    long fusions_refused[3];    /* friendly pieces reached that do not fuse: a simple piece of a pair that
                                 * does not fuse [0], a compound by a simple piece [1], anything by a compound [2] */
    long fissions;              /* a compound's component alone reaching an empty cell */
    long fissions_refused;      /* ... reaching an occupied cell (no capture by a component alone) */
    long castles;               /* castling moves generated (before the test of where the royal lands) */
    long castles_blocked;       /* castling rights held with a piece between the royal and the rook */
    long castles_attacked;      /* ... with the way clear, but the royal in check or a crossed cell attacked */
};

/* Adds to the counts what the pseudo-legal moves of the side to move meet. */
void reference_count(const struct variant *v, const struct setup *s, struct reference_stats *st);

#endif
