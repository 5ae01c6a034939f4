/* Which variant a FEN belongs to: the variant whose starting position it is, the variants that read it. */
#include "fen_variant.h"

#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "setup.h"

/* Whether two FENs place the same pieces (their first fields are the same). */
static bool same_pieces(const char *a, const char *b)
{
    size_t n = strcspn(a, " \t");
    return n == strcspn(b, " \t") && !strncmp(a, b, n);
}

const struct variant *fen_start_variant(const struct variant *v, const char *fen)
{
    if (same_pieces(v->start_fen, fen))
        return v;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *other = registry_get(i);
        if (other->nplayers == v->nplayers && same_pieces(other->start_fen, fen))
            return other;
    }
    return NULL;
}

bool fen_fitting_variants(const struct variant *v, const char *fen, char *out, size_t len)
{
    size_t used = 0;
    int cells = 0;
    char err[8];
    struct setup s;
    out[0] = 0;
    if (setup_from_fen(&s, v, fen, err, sizeof err))
        return false;
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *other = registry_get(i);
        if (!setup_from_fen(&s, other, fen, err, sizeof err))
            continue;
        int n = snprintf(out + used, len - used, "%s%s", used ? ", " : "", other->name);
        used = n < 0 || (size_t)n >= len - used ? len - 1 : used + (size_t)n;
        cells = other->geo.ncells;
    }
    if (!out[0])
        return false;
    /* The variants that read one FEN have one board, so one count of cells. */
    if (used + 1 < len)
        snprintf(out + used, len - used, " (%d cells)", cells);
    return true;
}
