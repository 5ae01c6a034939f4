/* Moves as UCI text: the from and to cells, then the promotion or fission letter. */
#include "move.h"

#include <ctype.h>
#include <string.h>

void move_to_text(const struct variant *v, move_t m, char *out)
{
    const struct geometry *g = &v->geo;
    strcpy(out, g->name[move_from(m)]);
    strcat(out, g->name[move_to(m)]);
    int suffix = move_promo(m) >= 0 ? move_promo(m) : move_fission(m);
    if (suffix >= 0) {
        size_t n = strlen(out);
        out[n] = (char)tolower((unsigned char)v->piece[suffix].letter);
        out[n + 1] = 0;
    }
}
