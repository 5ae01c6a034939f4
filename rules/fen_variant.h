/* Which variant a FEN belongs to, for a FEN given to another variant: the variant whose starting
 * position it is, and the variants whose boards it fits. */
#ifndef FEN_VARIANT_H
#define FEN_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "variant.h"

/* The variant with as many armies as `v` whose starting position has the FEN's pieces, `v` itself
 * before any other; NULL if there is none. */
const struct variant *fen_start_variant(const struct variant *v, const char *fen);
/* For a FEN that `v` cannot read: names the variants that read it (up to len bytes: "nd-wellisch,
 * nd-mccooey (169 cells)"); false if `v` reads it or none does. */
bool fen_fitting_variants(const struct variant *v, const char *fen, char *out, size_t len);

#endif
