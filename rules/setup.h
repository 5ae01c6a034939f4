/* A position as plain data (mailbox), read from and written to FEN (docs/protocol.md#fen). */
#ifndef SETUP_H
#define SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "variant.h"

struct setup {
    unsigned char piece[MAX_CELLS];   /* piece_make() codes, 0 = empty */
    int side;
    unsigned castling;                /* castling rights: castle_bit(player, rule) */
    int ep;                           /* first cell passed by the last double or triple step, or CELL_NONE */
    int ep_victim;                    /* with ep: the pawn that made that step */
    int halfmove, fullmove;
};

enum { SETUP_EP_PASSED = 2 };
/* The cells the last multi-step passed (s->ep set), in the order passed: s->ep up to s->ep_victim along
 * an orthogonal line. Returns how many, or 0 when the two cells do not make such a step. */
int setup_ep_passed(const struct variant *v, const struct setup *s, int cells[SETUP_EP_PASSED]);
/* The pawns of the army that moved last that may just have passed s->ep by a step of npassed + 1 cells
 * (npassed 0: two or three): one past the passed cells along a multi-step direction of theirs, from an
 * empty cell allowing that step. Returns how many (distinct, at most MAX_CELLS). */
int setup_ep_victims(const struct variant *v, const struct setup *s, int npassed, int out[]);

/* Parses a FEN; on error writes one line to err and returns false. */
bool setup_from_fen(struct setup *s, const struct variant *v, const char *fen, char *err, size_t errlen);
void setup_to_fen(const struct setup *s, const struct variant *v, char *fen, size_t len);
enum { SETUP_PIECE_TEXT = 8 };
/* Letters of one piece as written in FEN ("P", "p", "rK", "(RU)"); out has SETUP_PIECE_TEXT bytes. */
void setup_piece_text(const struct variant *v, int piece, char *out);

#endif
