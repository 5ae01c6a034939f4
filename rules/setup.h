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
    int ep;                           /* cell passed by the last double step, or CELL_NONE */
    int halfmove, fullmove;
};

/* Parses a FEN; on error writes one line to err and returns false. */
bool setup_from_fen(struct setup *s, const struct variant *v, const char *fen, char *err, size_t errlen);
void setup_to_fen(const struct setup *s, const struct variant *v, char *fen, size_t len);
enum { SETUP_PIECE_TEXT = 8 };
/* Letters of one piece as written in FEN ("P", "p", "rK", "(RU)"); out has SETUP_PIECE_TEXT bytes. */
void setup_piece_text(const struct variant *v, int piece, char *out);

#endif
