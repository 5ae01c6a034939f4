/* A match's opening positions: a FEN or EPD file, each line checked against the variant. */
#include "openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../util/file.h"
#include "../util/random.h"

/* The FEN part of a line: the four position fields, then the two counters if they are numbers
 * (EPD puts operations such as 'bm f5f6;' there instead). */
static void fen_of_line(const char *line, char *fen, size_t len)
{
    char copy[4096], *save;
    size_t n = 0;
    int field = 0;
    snprintf(copy, sizeof copy, "%s", line);
    fen[0] = 0;
    for (char *t = strtok_r(copy, " \t\r\n", &save); t && field < 6 && n < len;
         t = strtok_r(NULL, " \t\r\n", &save), field++) {
        if (field >= 4 && strspn(t, "0123456789") != strlen(t))
            break;
        n += (size_t)snprintf(fen + n, len - n, "%s%s", field ? " " : "", t);
    }
}

static bool add(struct openings *o, const char *fen)
{
    char **grown = realloc(o->fen, (size_t)(o->n + 1) * sizeof *o->fen);
    if (!grown)
        return false;
    o->fen = grown;
    if (!(o->fen[o->n] = strdup(fen)))
        return false;
    o->n++;
    return true;
}

bool openings_read(struct openings *o, FILE *f, const char *origin, struct game *g, char *err, size_t errlen)
{
    *o = (struct openings){ 0 };
    char line[4096], fen[4096], why[512];
    bool ok = true;
    for (int number = 1; ok && fgets(line, sizeof line, f); number++) {
        const char *p = line + strspn(line, " \t");
        if (!*p || *p == '#' || *p == '\n' || *p == '\r')
            continue;
        fen_of_line(p, fen, sizeof fen);
        if (!game_set_position(g, fen, NULL, 0, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", origin, number, why);
            ok = false;
        } else if (!add(o, fen)) {
            snprintf(err, errlen, "out of memory");
            ok = false;
        }
    }
    if (ok && !o->n) {
        snprintf(err, errlen, "no positions in the openings file '%s'", origin);
        ok = false;
    }
    if (!ok)
        openings_free(o);
    return ok;
}

bool openings_load(struct openings *o, const char *path, const struct variant *v, char *err, size_t errlen)
{
    *o = (struct openings){ 0 };
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open the openings file '%s'", path);
        return false;
    }
    struct game g = { 0 };
    bool ok = game_init(&g, v, false, err, errlen) && openings_read(o, f, path, &g, err, errlen);
    fclose(f);
    game_free(&g);
    return ok;
}

bool openings_find_shipped(const char *variant, char *path, size_t len)
{
    char relative[NAME_LEN + 32];
    snprintf(relative, sizeof relative, "books/openings/%s.epd", variant);
    return file_find_shipped(relative, path, len);
}

void openings_shuffle(struct openings *o, unsigned long long seed)
{
    uint64_t state = seed;
    for (int i = o->n - 1; i > 0; i--) {
        int j = (int)(random_next(&state) % (uint64_t)(i + 1));
        char *t = o->fen[i];
        o->fen[i] = o->fen[j];
        o->fen[j] = t;
    }
}

void openings_free(struct openings *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->fen[i]);
    free(o->fen);
    *o = (struct openings){ 0 };
}
