/* The known variants: the built-in ones parsed at start-up, user files added all or nothing. */
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/file.h"
#include "setup.h"
#include "zobrist.h"

extern const char variants_builtin_ini[];

static struct variant *variants[MAX_VARIANTS];
static int nvariants;
int registry_count(void)
{
    return nvariants;
}

const struct variant *registry_get(int i)
{
    return i >= 0 && i < nvariants ? variants[i] : NULL;
}

const struct variant *registry_find(const char *name)
{
    for (int i = 0; i < nvariants; i++)
        if (!strcmp(variants[i]->name, name))
            return variants[i];
    return NULL;
}

/* Castling rules are for the armies as they start, so the start position grants every right. */
static bool start_castles(const struct variant *v, const struct setup *s, char *why, size_t len)
{
    for (int p = 0; p < v->nplayers; p++)
        for (int i = 0; i < v->ncastles; i++)
            if (!(s->castling & castle_bit(p, i))) {
                snprintf(why, len, "the castling field must list every castling rook (%s is missing)",
                         v->geo.name[v->castle[p][i].rook]);
                return false;
            }
    return true;
}

/* check: the validator of user definitions; the built-in ones skip it, as building every variant's
 * tables to check it was nine tenths of each start's work (the tests check them instead). */
int registry_add_text(const char *text, const char *origin, bool dry_run, variant_validator check, char *err,
                      size_t errlen)
{
    struct variant *fresh[MAX_VARIANTS];
    int n = variant_parse(text, origin, fresh, MAX_VARIANTS - nvariants,
                          (const struct variant *const *)variants, nvariants, err, errlen);
    if (n < 0)
        return -1;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        struct setup s;
        char why[256];
        if (!zobrist_init(fresh[i])) {
            snprintf(err, errlen, "%s: variant '%s': out of memory for its keys", origin, fresh[i]->name);
            ok = false;
        } else if (!setup_from_fen(&s, fresh[i], fresh[i]->start_fen, why, sizeof why)
                   || !start_castles(fresh[i], &s, why, sizeof why)
                   || (check && !check(fresh[i], why, sizeof why))) {
            snprintf(err, errlen, "%s: variant '%s': start position: %s", origin, fresh[i]->name, why);
            ok = false;
        }
    }
    for (int i = 0; i < n; i++) {
        if (ok && !dry_run) {
            variants[nvariants++] = fresh[i];
        } else {
            variant_free(fresh[i]);
        }
    }
    return ok ? n : -1;
}

int registry_add_file(const char *path, bool dry_run, variant_validator check, char *err, size_t errlen)
{
    size_t len;
    char *text = file_read(path, 1 << 20, &len, err, errlen);
    if (!text)
        return -1;
    if (strlen(text) != len) {
        free(text);
        snprintf(err, errlen, "variant file '%s' is not text", path);
        return -1;
    }
    int n = registry_add_text(text, path, dry_run, check, err, errlen);
    free(text);
    return n;
}

bool registry_init(char *err, size_t errlen)
{
    if (nvariants)
        return true;
    return registry_add_text(variants_builtin_ini, "variants.ini", false, NULL, err, errlen) > 0;
}
