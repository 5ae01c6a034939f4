/* A datagen file's records as feature indices per perspective, with the score and the mover's points. */
#include "features.h"

#include <stdio.h>
#include <string.h>

#include "../eval/nnue.h"
#include "../games/datagen_format.h"
#include "../util/file.h"
#include "../util/le.h"

struct convert {
    const char *in;
    const struct variant *v;
    struct feature_view view;
    struct features_stats *st;
    char *err;
    size_t errlen;
};

/* Every record of the file in turn; false (with err) if the file cannot be read or is damaged. */
static bool for_each_record(struct convert *c, bool (*each)(struct convert *c, const struct datagen_record *r, FILE *f),
                            FILE *f)
{
    struct datagen_reader rd;
    struct datagen_record r;
    int got;
    if (!datagen_open(&rd, c->in, c->err, c->errlen))
        return false;
    while ((got = datagen_next(&rd, &r, c->err, c->errlen)) > 0)
        if (!each(c, &r, f))
            break;
    datagen_close(&rd);
    return got == 0;
}

/* The first pass: the variant and the most pieces of a position. */
static bool survey(struct convert *c, const struct datagen_record *r, FILE *f)
{
    (void)f;
    if (!c->v) {
        c->v = r->v;
        nnue_view_init(&c->view, r->v);
    }
    if (r->v != c->v) {
        c->st->skipped++;
        return true;
    }
    int n = 0;
    for (int cell = 0; cell < r->v->geo.ncells; cell++)
        n += r->s.piece[cell] != 0;
    c->st->records++;
    if (n > c->st->slots)
        c->st->slots = n;
    return true;
}

/* A record: score (i16), the mover's points in thousandths (u16), then per perspective from the
 * mover's in turn order the features of its pieces, the unused slots holding nfeatures. */
static bool put_record(struct convert *c, const struct datagen_record *r, FILE *f)
{
    if (r->v != c->v)
        return true;
    unsigned char b[4 + 2 * MAX_PLAYERS * DATAGEN_MAX_PIECES];
    int slots = c->st->slots, np = c->view.nplayers;
    le_put(b, (uint64_t)(int64_t)r->score, 2);
    le_put(b + 2, (uint64_t)(r->points[r->s.side] * 1000 / r->den), 2);
    for (int k = 0; k < np; k++) {
        int p = (r->s.side + k) % np, n = 0;
        unsigned char *out = b + 4 + 2 * k * slots;
        for (int cell = 0; cell < r->v->geo.ncells; cell++)
            if (r->s.piece[cell])
                le_put(out + 2 * n++, (uint64_t)feature_index(&c->view, p, r->s.piece[cell], cell), 2);
        for (; n < slots; n++)
            le_put(out + 2 * n, (uint64_t)c->view.nfeatures, 2);
    }
    return fwrite(b, 4 + 2 * (size_t)np * (size_t)slots, 1, f) == 1;
}

static bool write_features(FILE *f, const void *ctx)
{
    struct convert *c = (struct convert *)ctx;
    unsigned char h[FEATURES_HEADER] = "SNFEAT\r\n";
    le_put(h + 8, c->v->fingerprint, 8);
    memcpy(h + 16, c->v->name, strnlen(c->v->name, NAME_LEN - 1));
    const int fields[] = { c->view.nplayers, c->view.ntypes, c->view.ncells, c->view.nfeatures, c->st->slots };
    for (int i = 0; i < 5; i++)
        le_put(h + 48 + 4 * i, (uint64_t)fields[i], 4);
    le_put(h + 68, c->st->records, 4);
    return fwrite(h, sizeof h, 1, f) == 1 && for_each_record(c, put_record, f);
}

bool features_convert(const char *in, const char *out, struct features_stats *st, char *err, size_t errlen)
{
    struct convert c = { .in = in, .st = st, .err = err, .errlen = errlen };
    memset(st, 0, sizeof *st);
    if (!for_each_record(&c, survey, NULL))
        return false;
    if (!c.v) {
        snprintf(err, errlen, "%s: no records", in);
        return false;
    }
    if (st->records > UINT32_MAX) {
        snprintf(err, errlen, "%s: more than %u records", in, UINT32_MAX);
        return false;
    }
    /* A damaged record found while writing has its own message; keep it over file_replace's. */
    char why[1024] = "";
    c.err = why;
    c.errlen = sizeof why;
    bool ok = file_replace(out, write_features, &c, err, errlen);
    if (!ok && why[0])
        snprintf(err, errlen, "%s", why);
    return ok;
}
