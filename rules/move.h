/* Moves: from and to cells, promotion type and flags packed in 32 bits; UCI text form (protocol.md).
 * Bits: from 0-7, to 8-15, promotion 16-20, untested 21, SEE later 22, en passant 24, double step 25,
 * fission 26-30, castling 31. The transposition table keeps bits 0-20 and 24-31 (engine/tt.c). */
#ifndef MOVE_H
#define MOVE_H

#include <stdint.h>

#include "variant.h"

typedef uint32_t move_t;

enum {
    MOVE_NONE = 0,
    MOVE_EP = 1u << 24,      /* en-passant capture */
    MOVE_DOUBLE = 1u << 25,  /* pawn double step: sets the en-passant cell */
    /* The search's generator leaves this move's test against curved, hopping and path attackers of the
     * royal to when it is tried (movegen_is_safe); never stored, played or shown. */
    MOVE_UNTESTED = 1u << 21,
    /* The search's move picker asks SEE of this capture only when it would pick it; never leaves it. */
    MOVE_SEE_LATER = 1u << 22,
    MAX_MOVES = 2048,
};
/* Castling: from and to are the royal's cells, the rule's rook moves too. (Out of an enum's int range.) */
#define MOVE_CASTLE (1u << 31)

static inline move_t move_make(int from, int to) { return (move_t)from | (move_t)to << 8; }
static inline int move_from(move_t m) { return (int)(m & 0xff); }
static inline int move_to(move_t m) { return (int)((m >> 8) & 0xff); }
_Static_assert(MAX_TYPES < 32, "a promotion type fits bits 16-20");

/* Type a pawn becomes, or -1. */
static inline int move_promo(move_t m) { return (int)((m >> 16) & 0x1f) - 1; }
static inline move_t move_with_promo(move_t m, int type) { return m | (move_t)(type + 1) << 16; }
/* Fission: the component type that leaves a compound alone, or -1 (bits 26-30). */
static inline int move_fission(move_t m) { return (int)((m >> 26) & 0x1f) - 1; }
static inline move_t move_with_fission(move_t m, int type) { return m | (move_t)(type + 1) << 26; }

/* Writes e.g. "f5f6", "f10f11q", or a fission "e1e5r"; out needs 8 bytes. */
void move_to_text(const struct variant *v, move_t m, char *out);

#endif
