/* The training data format: records to bytes and back, every field checked; the file reader. */
#include "datagen_format.h"

#include <errno.h>
#include <string.h>

#include "../rules/registry.h"
#include "../rules/score.h"
#include "../util/le.h"

/* Byte offsets of the fields (docs/datagen.md). */
enum {
    AT_FINGERPRINT = 0,
    AT_SCORE = 8,
    AT_PLY = 10,
    AT_FULLMOVE = 12,
    AT_CASTLING = 14,
    AT_SIDE = 16,
    AT_EP = 17,
    AT_HALFMOVE = 18,
    AT_WDL = 19,
    AT_DEN = 20,
    AT_POINTS = 22,
    AT_PLACE = 28,
    AT_NPIECES = 31,
    AT_MOVE = 32,
    AT_OCCUPANCY = 36,
    AT_PIECES = AT_OCCUPANCY + DATAGEN_MAX_CELLS / 8,
};

_Static_assert(AT_PIECES + DATAGEN_MAX_PIECES == DATAGEN_RECORD_SIZE, "the fields fill the record");
_Static_assert(AT_PLACE == AT_POINTS + 2 * DATAGEN_MAX_ARMIES && AT_NPIECES == AT_PLACE + DATAGEN_MAX_ARMIES,
               "each army's points and place");
_Static_assert(DATAGEN_MAX_CELLS >= 217 && DATAGEN_MAX_CELLS % 8 == 0, "the largest board's cells fit");

int datagen_wdl(const int place[MAX_PLAYERS], int nplayers, int side)
{
    int first = 0;
    for (int p = 0; p < nplayers; p++)
        first += place[p] == 1;
    return place[side] != 1 ? 0 : first == 1 ? 2 : 1;
}

static int saturate(int x, int hi)
{
    return x < 0 ? 0 : x > hi ? hi : x;
}

bool datagen_encode(const struct datagen_record *r, unsigned char out[DATAGEN_RECORD_SIZE])
{
    const struct variant *v = r->v;
    int n = 0;
    memset(out, 0, DATAGEN_RECORD_SIZE);
    for (int c = 0; c < v->geo.ncells; c++) {
        if (!r->s.piece[c])
            continue;
        if (n == DATAGEN_MAX_PIECES)
            return false;
        out[AT_OCCUPANCY + c / 8] |= (unsigned char)(1u << c % 8);
        out[AT_PIECES + n++] = r->s.piece[c];
    }
    le_put(out + AT_FINGERPRINT, v->fingerprint, 8);
    le_put(out + AT_SCORE, (uint16_t)(int16_t)r->score, 2);
    le_put(out + AT_MOVE, r->move, 4);
    le_put(out + AT_PLY, (uint64_t)saturate(r->ply, UINT16_MAX), 2);
    le_put(out + AT_FULLMOVE, (uint64_t)saturate(r->s.fullmove, UINT16_MAX), 2);
    le_put(out + AT_CASTLING, r->s.castling, 2);
    out[AT_SIDE] = (unsigned char)r->s.side;
    out[AT_EP] = (unsigned char)r->s.ep;
    out[AT_HALFMOVE] = (unsigned char)saturate(r->s.halfmove, UINT8_MAX);
    out[AT_WDL] = (unsigned char)r->wdl;
    le_put(out + AT_DEN, (uint64_t)r->den, 2);
    for (int p = 0; p < DATAGEN_MAX_ARMIES; p++) {
        le_put(out + AT_POINTS + 2 * p, (uint64_t)r->points[p], 2);
        out[AT_PLACE + p] = (unsigned char)r->place[p];
    }
    out[AT_NPIECES] = (unsigned char)n;
    return true;
}

static const struct variant *variant_of_fingerprint(uint64_t fingerprint)
{
    for (int i = 0; i < registry_count(); i++)
        if (registry_get(i)->fingerprint == fingerprint)
            return registry_get(i);
    return NULL;
}

/* The position's fields; false with err on the first bad one. */
static bool decode_position(const unsigned char *in, const struct variant *v, struct setup *s, char *err,
                            size_t errlen)
{
    int n = 0, npieces = in[AT_NPIECES];
    unsigned rights = 0;
    for (int p = 0; p < v->nplayers; p++)
        for (int k = 0; k < v->ncastles; k++)
            rights |= castle_bit(p, k);
    *s = (struct setup){ .side = in[AT_SIDE], .ep = in[AT_EP], .halfmove = in[AT_HALFMOVE],
                         .castling = (unsigned)le_get(in + AT_CASTLING, 2),
                         .fullmove = (int)le_get(in + AT_FULLMOVE, 2) };
    if (s->side >= v->nplayers) {
        snprintf(err, errlen, "side to move %d, but %s has %d armies", s->side, v->name, v->nplayers);
        return false;
    }
    if (s->ep != CELL_NONE && s->ep >= v->geo.ncells) {
        snprintf(err, errlen, "en-passant cell %d off the board", s->ep);
        return false;
    }
    if (s->castling & ~rights) {
        snprintf(err, errlen, "castling rights %#x beyond the variant's rules", s->castling);
        return false;
    }
    if (npieces > DATAGEN_MAX_PIECES) {
        snprintf(err, errlen, "%d pieces, at most %d", npieces, DATAGEN_MAX_PIECES);
        return false;
    }
    for (int c = 0; c < DATAGEN_MAX_CELLS; c++) {
        if (!(in[AT_OCCUPANCY + c / 8] >> c % 8 & 1))
            continue;
        if (c >= v->geo.ncells) {
            snprintf(err, errlen, "occupied cell %d off the board", c);
            return false;
        }
        if (n == npieces) {
            snprintf(err, errlen, "more occupied cells than the %d pieces", npieces);
            return false;
        }
        int piece = in[AT_PIECES + n++];
        if (piece_type(piece) < 0 || piece_type(piece) >= v->ntypes || piece_colour(piece) >= v->nplayers) {
            snprintf(err, errlen, "bad piece code %d on cell %d", piece, c);
            return false;
        }
        s->piece[c] = (unsigned char)piece;
    }
    if (n < npieces) {
        snprintf(err, errlen, "%d pieces but %d occupied cells", npieces, n);
        return false;
    }
    for (int i = npieces; i < DATAGEN_MAX_PIECES; i++)
        if (in[AT_PIECES + i]) {
            snprintf(err, errlen, "piece code after the last piece");
            return false;
        }
    /* A record keeps the first passed cell only; the pawn that passed it is found as a FEN's is. */
    int victims[MAX_CELLS];
    if (s->ep != CELL_NONE && !setup_ep_victims(v, s, 0, victims)) {
        snprintf(err, errlen, "no pawn has just passed the en-passant cell %s", v->geo.name[s->ep]);
        return false;
    }
    s->ep_victim = s->ep == CELL_NONE ? CELL_NONE : victims[0];
    return true;
}

/* The result fields; false with err on the first bad one. */
static bool decode_result(const unsigned char *in, struct datagen_record *r, char *err, size_t errlen)
{
    const struct variant *v = r->v;
    int sum = 0;
    r->wdl = in[AT_WDL];
    r->den = (int)le_get(in + AT_DEN, 2);
    memset(r->points, 0, sizeof r->points);
    memset(r->place, 0, sizeof r->place);
    for (int p = 0; p < DATAGEN_MAX_ARMIES; p++) {
        r->points[p] = (int)le_get(in + AT_POINTS + 2 * p, 2);
        r->place[p] = in[AT_PLACE + p];
        sum += r->points[p];
        bool inside = p < v->nplayers;
        if (inside ? r->place[p] < 1 || r->place[p] > v->nplayers : r->place[p] || r->points[p]) {
            snprintf(err, errlen, "army %d: placement %d, points %d", p, r->place[p], r->points[p]);
            return false;
        }
    }
    if (!r->den || sum != r->den) {
        snprintf(err, errlen, "points %d/%d %d/%d %d/%d do not share one game", r->points[0], r->den,
                 r->points[1], r->den, r->points[2], r->den);
        return false;
    }
    if (r->wdl != datagen_wdl(r->place, v->nplayers, r->s.side)) {
        snprintf(err, errlen, "result %d for the mover does not match the placements", r->wdl);
        return false;
    }
    return true;
}

bool datagen_decode(const unsigned char in[DATAGEN_RECORD_SIZE], struct datagen_record *r, char *err, size_t errlen)
{
    uint64_t fingerprint = le_get(in + AT_FINGERPRINT, 8);
    *r = (struct datagen_record){ .v = variant_of_fingerprint(fingerprint),
                                  .score = (int16_t)le_get(in + AT_SCORE, 2), .ply = (int)le_get(in + AT_PLY, 2),
                                  .move = (move_t)le_get(in + AT_MOVE, 4) };
    if (!r->v) {
        snprintf(err, errlen, "no loaded variant has the fingerprint %016llx", (unsigned long long)fingerprint);
        return false;
    }
    if (r->score < -SCORE_MATE || r->score > SCORE_MATE) {
        snprintf(err, errlen, "score %d beyond a mate (%d)", r->score, SCORE_MATE);
        return false;
    }
    if (move_from(r->move) >= r->v->geo.ncells || move_to(r->move) >= r->v->geo.ncells
        || move_promo(r->move) >= r->v->ntypes || move_fission(r->move) >= r->v->ntypes) {
        snprintf(err, errlen, "move %#x off the board or to no piece type", (unsigned)r->move);
        return false;
    }
    return decode_position(in, r->v, &r->s, err, errlen) && decode_result(in, r, err, errlen);
}

bool datagen_open(struct datagen_reader *rd, const char *path, char *err, size_t errlen)
{
    *rd = (struct datagen_reader){ .f = fopen(path, "rb") };
    snprintf(rd->path, sizeof rd->path, "%s", path);
    if (!rd->f)
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return rd->f != NULL;
}

int datagen_next(struct datagen_reader *rd, struct datagen_record *r, char *err, size_t errlen)
{
    unsigned char in[DATAGEN_RECORD_SIZE];
    char why[256];
    size_t got = fread(in, 1, sizeof in, rd->f);
    if (got == sizeof in && datagen_decode(in, r, why, sizeof why)) {
        rd->index++;
        return 1;
    }
    if (!got && !ferror(rd->f))
        return 0;
    if (ferror(rd->f))
        snprintf(why, sizeof why, "cannot read: %s", strerror(errno));
    else if (got < sizeof in)
        snprintf(why, sizeof why, "cut short: %zu of %d bytes", got, DATAGEN_RECORD_SIZE);
    snprintf(err, errlen, "%s: record %llu: %s", rd->path, (unsigned long long)rd->index + 1, why);
    return -1;
}

void datagen_close(struct datagen_reader *rd)
{
    if (rd->f)
        fclose(rd->f);
    rd->f = NULL;
}
