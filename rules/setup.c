/* FEN: a position as plain data (mailbox) read from and written to text, every field checked. */
#include "setup.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In a game with fusion a compound is written by its components in type order: (RU), (ru); one that two
 * pairs form (divergent Fusion) has no fixed components and is written by its own letter. */
void setup_piece_text(const struct variant *v, int piece, char *out)
{
    int c = piece_colour(piece), t = piece_type(piece), n = 0;
    if (v->nplayers > 2)
        out[n++] = v->colour_letter[c];
    bool lower = v->nplayers == 2 && c;
    char letters[2] = { v->piece[t].letter, 0 };
    int count = 1;
    if (variant_is_compound(v, t) && !v->component[t][2]) {
        letters[0] = v->piece[v->component[t][0] - 1].letter;
        letters[1] = v->piece[v->component[t][1] - 1].letter;
        count = 2;
        out[n++] = '(';
    }
    for (int i = 0; i < count; i++)
        out[n++] = lower ? (char)tolower((unsigned char)letters[i]) : letters[i];
    if (count == 2)
        out[n++] = ')';
    out[n] = 0;
}

static int colour_of_letter(const struct variant *v, char ch)
{
    const char *p = memchr(v->colour_letter, ch, (size_t)v->nplayers);
    return ch && p ? (int)(p - v->colour_letter) : -1;
}

/* A type of the army from a letter, or from "(XY)": the compound that X and Y fuse into, either order. */
static int read_type(const struct variant *v, int army, const char **s, bool *lower)
{
    const char *p = *s;
    int type;
    if (*p == '(') {
        if (!isalpha((unsigned char)p[1]) || !isalpha((unsigned char)p[2]) || p[3] != ')')
            return -1;
        int a = variant_army_type(v, army, p[1]), b = variant_army_type(v, army, p[2]);
        *lower = islower((unsigned char)p[1]);
        if (a < 0 || b < 0 || !!islower((unsigned char)p[2]) != *lower || !v->fuse[a][b])
            return -1;
        type = v->fuse[a][b] - 1;
        p += 4;
    } else {
        if (!isalpha((unsigned char)*p))
            return -1;
        *lower = islower((unsigned char)*p);
        type = variant_army_type(v, army, *p);
        p++;
    }
    *s = p;
    return type;
}

/* Reads one piece at *s; returns its code or 0. */
static int read_piece(const struct variant *v, const char **s)
{
    const char *p = *s;
    int colour = 0;
    bool lower;
    if (v->nplayers > 2 && (colour = colour_of_letter(v, *p++)) < 0)
        return 0;
    if (v->nplayers == 2)
        colour = islower((unsigned char)p[*p == '(']) != 0;
    int type = read_type(v, v->army[colour], &p, &lower);
    if (type < 0 || (v->nplayers > 2 && lower))
        return 0;
    *s = p;
    return piece_make(colour, type);
}

static bool fail(char *err, size_t errlen, const char *msg, const char *detail)
{
    snprintf(err, errlen, "bad FEN: %s%s%s", msg, detail ? " " : "", detail ? detail : "");
    return false;
}

static bool parse_board(struct setup *s, const struct variant *v, const char *b, char *err, size_t errlen)
{
    const struct geometry *g = &v->geo;
    int file = 0, rank = 0;
    char where[12];
    for (const char *p = b; *p;) {
        if (file >= g->nfiles)
            return fail(err, errlen, "too many files", NULL);
        /* A column of a board given by files need not be one of its lettered files: name a cell of it. */
        const char *lowest = g->name[g->file_first[file]];
        if (g->shape == SHAPE_FILES)
            snprintf(where, sizeof where, "with %s", lowest);
        else
            snprintf(where, sizeof where, "%c", lowest[0]);
        if (*p == '/') {
            if (rank != g->file_len[file])
                return fail(err, errlen, "wrong number of cells in file", where);
            file++;
            rank = 0;
            p++;
        } else if (isdigit((unsigned char)*p)) {
            char *end;
            long n = strtol(p, &end, 10);
            /* Compared with the room left, not as rank + n: a huge count would overflow the sum. */
            if (n <= 0 || n > g->file_len[file] - rank)
                return fail(err, errlen, "too many cells in file", where);
            rank += (int)n;
            p = end;
        } else {
            int piece = read_piece(v, &p);
            if (!piece)
                return fail(err, errlen, "unknown piece in file", where);
            if (rank >= g->file_len[file])
                return fail(err, errlen, "too many cells in file", where);
            s->piece[g->file_first[file] + rank++] = (unsigned char)piece;
        }
    }
    if (file != g->nfiles - 1 || rank != g->file_len[file])
        return fail(err, errlen, "the board does not fill every file", NULL);
    return true;
}

/* The piece that stands on the cell in the variant's start position. */
static int start_piece(const struct variant *v, int cell)
{
    struct setup start = { 0 };
    char board[sizeof v->start_fen], err[8];
    snprintf(board, sizeof board, "%.*s", (int)strcspn(v->start_fen, " \t"), v->start_fen);
    return parse_board(&start, v, board, err, sizeof err) ? start.piece[cell] : 0;
}

/* The castling field: the cells of the rooks that may still castle, comma-separated. A right needs its
 * royal on the royal's cell and, on the rook's cell, the piece that starts there. */
static bool parse_castling(struct setup *t, const struct variant *v, const char *field, char *err, size_t errlen)
{
    if (!strcmp(field, "-"))
        return true;
    if (!v->ncastles)
        return fail(err, errlen, "this variant has no castling; castling field must be '-', not", field);
    size_t len = strlen(field);
    if (field[0] == ',' || field[len - 1] == ',' || strstr(field, ",,"))
        return fail(err, errlen, "bad castling field", field);
    char buf[1024], *save;
    snprintf(buf, sizeof buf, "%s", field);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int len = 0, cell = geo_parse_cell(&v->geo, tok, &len), player = -1, rule = -1;
        unsigned bits = 0;
        /* A rook's right covers every rule it castles by (short and long). */
        for (int p = 0; p < v->nplayers && cell != CELL_NONE && !tok[len]; p++)
            for (int i = 0; i < v->ncastles; i++)
                if (v->castle[p][i].rook == cell) {
                    bits |= castle_bit(p, i);
                    if (player < 0)
                        player = p, rule = i;
                }
        if (player < 0)
            return fail(err, errlen, "no castling rook starts on", tok);
        if (t->castling & bits)
            return fail(err, errlen, "castling rook listed twice:", tok);
        int royal = v->castle[player][rule].royal, rook = t->piece[cell];
        if (t->piece[royal] != piece_make(player, variant_royal_type(v, player)))
            return fail(err, errlen, "castling right without the royal piece on", v->geo.name[royal]);
        if (!rook || piece_colour(rook) != player || rook != start_piece(v, cell))
            return fail(err, errlen, "castling right without its rook on", tok);
        t->castling |= bits;
    }
    return true;
}

static bool on_board(const struct variant *v, const struct setup *s, int player)
{
    for (int c = 0; c < v->geo.ncells; c++)
        if (s->piece[c] == piece_make(player, variant_royal_type(v, player)))
            return true;
    return false;
}

/* The armies whose last double step may still be taken (variants.md, four players): the one that moved
 * last (the previous one in turn order with its royal on the board), and before it each one that only
 * armies of other kinds have followed since; last the mover's own, whose step stays open until it moves
 * again where every other army of its kind has left (no one takes it; the move generator closes it), so
 * that such a position reads back as the engine writes it. */
static int ep_owners(const struct variant *v, const struct setup *s, int out[MAX_PLAYERS])
{
    int n = 0;
    unsigned followed = 0;   /* armies (kinds) that moved after the candidate */
    for (int k = 1; k <= v->nplayers; k++) {
        int p = (s->side + v->nplayers - k) % v->nplayers;
        if (!on_board(v, s, p))
            continue;
        if (!(followed >> v->army[p] & 1))
            out[n++] = p;
        followed |= 1u << v->army[p];
        if (v->narmies == 1)
            break;
    }
    if (!n)
        out[n++] = s->side;
    return n;
}

static int step(const struct geometry *g, int cell, struct vec u, int times)
{
    return cell == CELL_NONE ? CELL_NONE : geo_cell(g, g->q[cell] + times * u.q, g->r[cell] + times * u.r);
}

int setup_ep_passed(const struct variant *v, const struct setup *s, int cells[SETUP_EP_PASSED])
{
    const struct geometry *g = &v->geo;
    struct vec d = { g->q[s->ep_victim] - g->q[s->ep], g->r[s->ep_victim] - g->r[s->ep] };
    int k = geo_distance(d, (struct vec){ 0, 0 });
    if (k < 1 || k > SETUP_EP_PASSED || d.q % k || d.r % k)
        return 0;
    struct vec u = { d.q / k, d.r / k };
    for (int i = 0; i < k; i++)
        if ((cells[i] = step(g, s->ep, u, i)) == CELL_NONE)
            return 0;
    return k;
}

int setup_ep_victims(const struct variant *v, const struct setup *s, int npassed, int out[])
{
    const struct geometry *g = &v->geo;
    int owners[MAX_PLAYERS], nowners = ep_owners(v, s, owners), n = 0;
    for (int o = 0; o < nowners; o++)
    for (int t = 0, prev = owners[o]; t < v->ntypes; t++) {
        const struct piece_def *d = &v->piece[t];
        for (int i = 0; d->en_passant && d->double_step && i < d->nleaps; i++)
            for (int dir = 0; dir < 6; dir++) {
                if (!(d->leaps[i].mode & MODE_MOVE) || !(d->double_dirs >> dir & 1) ||
                    d->leaps[i].dq != geo_orth[dir].q || d->leaps[i].dr != geo_orth[dir].r)
                    continue;
                struct vec u = geo_rotate(geo_orth[dir], v->rotation[prev]);
                int origin = step(g, s->ep, u, -1);
                int most = origin != CELL_NONE ? variant_double_steps(v, prev, t, origin) : 0;
                for (int k = 2; origin != CELL_NONE && !s->piece[origin] && k <= most; k++) {
                    int victim = step(g, origin, u, k);
                    bool clear = true, known = false;
                    for (int j = 1; j < k; j++)
                        clear &= !s->piece[step(g, origin, u, j)];
                    /* A vector given twice (with and without start:) finds the pawn once. */
                    for (int j = 0; j < n; j++)
                        known |= out[j] == victim;
                    if ((!npassed || npassed == k - 1) && clear && !known && victim != CELL_NONE &&
                        s->piece[victim] == piece_make(prev, t))
                        out[n++] = victim;
                }
            }
    }
    return n;
}

/* The en-passant field: the cells the last double or triple step passed, in the order passed, then the
 * cell of the pawn that made it where the passed cells alone could belong to two pawns' steps. */
static bool parse_en_passant(struct setup *t, const struct variant *v, const char *field, char *err, size_t errlen)
{
    int cell[SETUP_EP_PASSED + 1], n = 0, len = 0;
    for (const char *p = field; *p; p += len)
        if (n == SETUP_EP_PASSED + 1 || (cell[n++] = geo_parse_cell(&v->geo, p, &len)) == CELL_NONE)
            return fail(err, errlen, "bad en-passant cell", field);
    if (!n)
        return fail(err, errlen, "bad en-passant cell", field);
    bool named = n > 1 && t->piece[cell[n - 1]];
    int npassed = n - named, victims[MAX_CELLS], passed[SETUP_EP_PASSED];
    t->ep = cell[0];
    int k = npassed <= SETUP_EP_PASSED ? setup_ep_victims(v, t, npassed, victims) : 0, found = 0;
    for (int i = 0; i < k; i++) {
        t->ep_victim = victims[i];
        bool same = setup_ep_passed(v, t, passed) == npassed && (!named || victims[i] == cell[n - 1]);
        for (int j = 0; same && j < npassed; j++)
            same = passed[j] == cell[j];
        if (same)
            victims[found++] = victims[i];
    }
    if (!found)
        return fail(err, errlen, "no pawn has just passed the en-passant cell", field);
    if (found > 1)
        return fail(err, errlen, "two pawns may have passed the en-passant cell: name the one that did after it, as in",
                    "c4c5");
    t->ep_victim = victims[0];
    return true;
}

static bool parse_count(const char *tok, int min, int *out)
{
    char *end;
    long n = tok ? strtol(tok, &end, 10) : 0;
    if (!tok || !isdigit((unsigned char)tok[0]) || *end || n < min || n > 1000000000)
        return false;
    *out = (int)n;
    return true;
}

bool setup_from_fen(struct setup *s, const struct variant *v, const char *fen, char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(fen) >= sizeof buf)
        return fail(err, errlen, "too long", NULL);
    strcpy(buf, fen);
    char *save, *f[7] = { 0 };
    int nf = 0;
    for (char *tok = strtok_r(buf, " \t", &save); tok && nf < 7; tok = strtok_r(NULL, " \t", &save))
        f[nf++] = tok;
    if (nf < 2 || nf > 6)
        return fail(err, errlen, "expected board, side, castling, en passant, halfmove, fullmove", NULL);
    struct setup t = { .ep = CELL_NONE, .fullmove = 1 };
    if (!parse_board(&t, v, f[0], err, errlen))
        return false;
    t.side = strlen(f[1]) == 1 ? colour_of_letter(v, f[1][0]) : -1;
    if (t.side < 0)
        return fail(err, errlen, "bad side to move", f[1]);
    if (f[2] && !parse_castling(&t, v, f[2], err, errlen))
        return false;
    if (f[3] && strcmp(f[3], "-") && !parse_en_passant(&t, v, f[3], err, errlen))
        return false;
    if (f[4] && !parse_count(f[4], 0, &t.halfmove))
        return fail(err, errlen, "bad halfmove clock", f[4]);
    if (f[5] && !parse_count(f[5], 1, &t.fullmove))
        return fail(err, errlen, "bad fullmove number", f[5]);
    int count[MAX_PLAYERS] = { 0 }, pieces[MAX_PLAYERS] = { 0 };
    for (int c = 0; c < v->geo.ncells; c++)
        if (t.piece[c]) {
            int pl = piece_colour(t.piece[c]);
            count[pl] += piece_type(t.piece[c]) == variant_royal_type(v, pl);
            pieces[pl]++;
        }
    for (int pl = 0; pl < v->nplayers; pl++) {
        /* Three or four players: an eliminated army has no pieces at all. */
        if (count[pl] != 1 && !(v->nplayers > 2 && pieces[pl] == 0 && pl != t.side)) {
            char who[64];
            snprintf(who, sizeof who, "(%c has %d, needs 1)", v->colour_letter[pl], count[pl]);
            return fail(err, errlen, "wrong number of royal pieces", who);
        }
    }
    *s = t;
    return true;
}

/* The en-passant field (parse_en_passant), written into buf. */
static const char *ep_text(const struct variant *v, const struct setup *s, char *buf)
{
    int passed[SETUP_EP_PASSED], victims[MAX_CELLS];
    if (s->ep == CELL_NONE)
        return "-";
    int n = setup_ep_passed(v, s, passed);
    *buf = 0;
    for (int i = 0; i < n; i++)
        strcat(buf, v->geo.name[passed[i]]);
    if (setup_ep_victims(v, s, n, victims) != 1)
        strcat(buf, v->geo.name[s->ep_victim]);
    return buf;
}

void setup_to_fen(const struct setup *s, const struct variant *v, char *fen, size_t len)
{
    const struct geometry *g = &v->geo;
    char out[2048];
    size_t n = 0;
    for (int file = 0; file < g->nfiles; file++) {
        int empty = 0;
        if (file)
            out[n++] = '/';
        for (int k = 0; k < g->file_len[file]; k++) {
            int piece = s->piece[g->file_first[file] + k];
            if (!piece) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)sprintf(out + n, "%d", empty);
            empty = 0;
            char text[SETUP_PIECE_TEXT];
            setup_piece_text(v, piece, text);
            n += (size_t)sprintf(out + n, "%s", text);
        }
        if (empty)
            n += (size_t)sprintf(out + n, "%d", empty);
    }
    out[n] = 0;
    /* The rooks' cells in cell order, which is by file, then rank. */
    char castling[MAX_PLAYERS * MAX_CASTLES * (CELL_NAME_LEN + 1) + 2] = "";
    for (int c = 0; c < g->ncells; c++) {
        bool held = false;
        for (int p = 0; p < v->nplayers; p++)
            for (int i = 0; i < v->ncastles; i++)
                held |= (s->castling & castle_bit(p, i)) && v->castle[p][i].rook == c;
        if (held)
            snprintf(castling + strlen(castling), sizeof castling - strlen(castling), "%s%s", castling[0] ? "," : "",
                     g->name[c]);
    }
    char ep[(SETUP_EP_PASSED + 1) * CELL_NAME_LEN + 1];
    snprintf(fen, len, "%s %c %s %s %d %d", out, v->colour_letter[s->side], castling[0] ? castling : "-",
             ep_text(v, s, ep), s->halfmove, s->fullmove);
}
