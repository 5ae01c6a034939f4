/* Hex SAN (docs/notation.md): a move as SAN sees it (the moving piece's letter, its cells, promotion,
 * capture), the shortest from-cell hint that tells it from the other legal moves, the check or mate
 * mark; and the reverse, a written move matched against the legal moves. */
#include "san.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "instance.h"

/* How much of the from-cell a move names: nothing, its file (the name's letter), its rank (the
 * name's digits) or the whole cell; in this order of length, which is the order tried. */
enum hint { HINT_NONE, HINT_FILE, HINT_RANK, HINT_CELL };

/* What SAN writes of a move. */
struct san_move {
    char letter;    /* the moving piece's letter; 0 for a pawn written without one */
    int type;       /* the type that moves: a fission's component */
    int from, to, promo;
    bool capture;
};

/* A move as written, before it is matched. */
struct san_pattern {
    const char *castle;             /* "O-O" or "O-O-O"; NULL for any other move */
    char letter;                    /* 0: none written */
    enum hint hint;
    char hint_text[CELL_NAME_LEN];  /* the hint as written: "c", "10", "c3" */
    int to;
    char promo;                     /* the promoted piece's letter in upper case; 0: none written */
};

/* A pawn goes without a letter where its army has one pawn type (an army with Brokers and Migrants
 * writes both letters). */
static bool pawn_letterless(const struct variant *v, int player, int type)
{
    int pawns = 0;
    for (int t = 0; t < v->ntypes; t++)
        pawns += v->piece[t].pawn && v->piece[t].army == v->army[player];
    return v->piece[type].pawn && pawns == 1;
}

static struct san_move san_describe(const struct variant *v, const struct setup *s, move_t m)
{
    struct san_move d = { .from = move_from(m), .to = move_to(m), .promo = move_promo(m) };
    int target = s->piece[d.to];
    d.type = move_fission(m) >= 0 ? move_fission(m) : piece_type(s->piece[d.from]);
    d.letter = pawn_letterless(v, s->side, d.type) ? 0 : v->piece[d.type].letter;
    /* A fusion lands on a piece of the mover's own: no capture. */
    d.capture = (m & MOVE_EP) || (target && piece_colour(target) != s->side);
    return d;
}

/* "O-O" (short: the nearer rook) or "O-O-O" where the player castles by two rules with rooks on either
 * side of the royal at different distances (De Vasa's and Brusky's games); NULL for any other move,
 * and for castling elsewhere, which is written as the royal's move. */
static const char *castle_name(const struct variant *v, int player, move_t m)
{
    if (!(m & MOVE_CASTLE) || v->ncastles != 2)
        return NULL;
    const struct castle_rule *r = v->castle[player];
    const struct geometry *geo = &v->geo;
    struct vec royal = { geo->q[r[0].royal], geo->r[r[0].royal] };
    struct vec rook[2] = { { geo->q[r[0].rook], geo->r[r[0].rook] }, { geo->q[r[1].rook], geo->r[r[1].rook] } };
    int d0 = geo_distance(royal, rook[0]), d1 = geo_distance(royal, rook[1]);
    if (d0 == d1 || geo_distance(rook[0], rook[1]) != d0 + d1)
        return NULL;
    int rule = r[0].royal_to == move_to(m) ? 0 : 1;
    return (rule == 0) == (d0 < d1) ? "O-O" : "O-O-O";
}

static void hint_text(const char *name, enum hint h, char *out)
{
    size_t len = h == HINT_NONE ? 0 : h == HINT_FILE ? 1 : strlen(name);
    const char *from = h == HINT_RANK ? name + 1 : name;
    snprintf(out, CELL_NAME_LEN, "%.*s", (int)len, from);
}

/* Whether the cell name has what the hint says of it. */
static bool hint_fits(const char *name, enum hint h, const char *hint)
{
    return h == HINT_NONE || (h == HINT_FILE && name[0] == hint[0]) || (h == HINT_RANK && !strcmp(name + 1, hint))
           || (h == HINT_CELL && !strcmp(name, hint));
}

/* Whether another legal move of the same piece type to the same cell, with the same promotion, has
 * the hint's part of the from-cell. */
static bool has_rival(const struct variant *v, const struct setup *s, const move_t *list, int n, move_t m,
                      const struct san_move *d, enum hint h)
{
    char hint[CELL_NAME_LEN];
    hint_text(v->geo.name[d->from], h, hint);
    for (int i = 0; i < n; i++) {
        struct san_move o = san_describe(v, s, list[i]);
        if (list[i] != m && o.type == d->type && o.to == d->to && o.promo == d->promo
            && hint_fits(v->geo.name[o.from], h, hint))
            return true;
    }
    return false;
}

/* The letter, the shortest hint that no rival shares, 'x', the target and "=L". */
static void san_body(const struct variant *v, const struct setup *s, const move_t *list, int n, move_t m, char *out)
{
    struct san_move d = san_describe(v, s, m);
    char hint[CELL_NAME_LEN], letter[2] = { d.letter, 0 };
    /* A pawn's capture names its file, as in chess ("exd5"). */
    enum hint h = d.letter || !d.capture ? HINT_NONE : HINT_FILE;
    while (h < HINT_CELL && has_rival(v, s, list, n, m, &d, h))
        h++;
    hint_text(v->geo.name[d.from], h, hint);
    int len = snprintf(out, SAN_LEN, "%s%s%s%s", letter, hint, d.capture ? "x" : "", v->geo.name[d.to]);
    if (d.promo >= 0)
        snprintf(out + len, SAN_LEN - (size_t)len, "=%c", v->piece[d.promo].letter);
}

/* Whether a piece of the player attacks the royal of another army on the board. */
static bool attacks_royal(const struct game *g, int player)
{
    struct setup s;
    g->ops->position_get(g->pos, &s);
    for (int c = 0; c < g->v->geo.ncells; c++) {
        int piece = s.piece[c];
        if (piece && piece_colour(piece) != player && g->v->piece[piece_type(piece)].royal
            && g->ops->position_attacked_by(g->pos, c, player))
            return true;
    }
    return false;
}

/* "#": two players, checkmate; three and four, an army leaves the board after the move (mated, or taken
 * off under a capture threat). "+": the mover attacks a royal on the board. */
static const char *san_mark(const struct game *g, move_t m)
{
    const struct engine_ops *ops = g->ops;
    move_t list[MAX_MOVES];
    enum turn_end end;
    int mover = ops->position_side(g->pos);
    ops->position_make(g->pos, m);
    int removed = ops->position_resolve(g->pos, &end);
    const char *mark = removed ? "#" : "";
    if (!removed && attacks_royal(g, mover))
        mark = g->v->nplayers == 2 && !ops->movegen_legal(g->pos, list) ? "#" : "+";
    ops->position_unresolve(g->pos, removed);
    ops->position_unmake(g->pos, m);
    return mark;
}

/* san_write's work; false (UCI text written) when the move is not legal. */
static bool san_compose(const struct game *g, move_t m, char *out)
{
    const struct variant *v = g->v;
    move_t list[MAX_MOVES];
    struct setup s;
    int n = game_legal_moves(g, list), i = 0;
    while (i < n && list[i] != m)
        i++;
    if (i == n) {
        move_to_text(v, m, out);
        return false;
    }
    g->ops->position_get(g->pos, &s);
    const char *castle = castle_name(v, s.side, m);
    if (castle)
        snprintf(out, SAN_LEN, "%s", castle);
    else
        san_body(v, &s, list, n, m, out);
    size_t len = strlen(out);
    snprintf(out + len, SAN_LEN - len, "%s", san_mark(g, m));
    return true;
}

void san_write(const struct game *g, move_t m, char *out)
{
    san_compose(g, m, out);
}

bool san_line(const struct game *g, const move_t *moves, int n, char *out, size_t len)
{
    struct setup s;
    struct game scratch = *g;
    char err[256], san[SAN_LEN];
    size_t used = 0;
    bool legal = true, fits = true;
    out[0] = 0;
    g->ops->position_get(g->pos, &s);
    scratch.pos = g->ops->position_new(g->tb);
    if (!scratch.pos || !g->ops->position_set(scratch.pos, &s, err, sizeof err)) {
        g->ops->position_free(scratch.pos);
        return false;
    }
    for (int i = 0; i < n && fits; i++) {
        if (legal && (legal = san_compose(&scratch, moves[i], san)))
            game_play(&scratch, moves[i], NULL);
        else
            move_to_text(g->v, moves[i], san);
        int k = snprintf(out + used, len - used, "%s%s", i ? " " : "", san);
        fits = k >= 0 && (size_t)k < len - used;
        if (fits)
            used += (size_t)k;
        else
            out[used] = 0;
    }
    g->ops->position_free(scratch.pos);
    return fits;
}

static bool parse_castle(const char *text, struct san_pattern *p)
{
    static const char *const forms[][2] = { { "O-O", "O-O" }, { "0-0", "O-O" }, { "O-O-O", "O-O-O" },
                                            { "0-0-0", "O-O-O" } };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (!strcmp(text, forms[i][0]))
            p->castle = forms[i][1];
    return p->castle != NULL;
}

/* The hint between the letter and the target: nothing, a file letter, rank digits or a cell. */
static bool parse_hint(const struct geometry *geo, const char *h, struct san_pattern *p)
{
    size_t len = strlen(h);
    int used = 0;
    if (len >= CELL_NAME_LEN)
        return false;
    if (!len)
        p->hint = HINT_NONE;
    else if (len == 1 && islower((unsigned char)*h))
        p->hint = HINT_FILE;
    else if (strspn(h, "0123456789") == len)
        p->hint = HINT_RANK;
    else if (geo_parse_cell(geo, h, &used) != CELL_NONE && (size_t)used == len)
        p->hint = HINT_CELL;
    else
        return false;
    memcpy(p->hint_text, h, len + 1);
    return true;
}

/* Splits the text, read from its end: marks, promotion, target, separator, then letter and hint. */
static bool san_parse(const struct geometry *geo, const char *text, struct san_pattern *p)
{
    char buf[SAN_LEN];
    size_t n = strlen(text);
    *p = (struct san_pattern){ .to = CELL_NONE };
    if (n >= sizeof buf)
        return false;
    memcpy(buf, text, n + 1);
    while (n && strchr("+#!?", buf[n - 1]))
        buf[--n] = 0;
    if (parse_castle(buf, p))
        return true;
    if (n >= 2 && buf[n - 2] == '=' && isalpha((unsigned char)buf[n - 1]))
        p->promo = (char)toupper((unsigned char)buf[n - 1]), n -= 2;
    else if (n >= 2 && isalpha((unsigned char)buf[n - 1]) && isdigit((unsigned char)buf[n - 2]))
        p->promo = (char)toupper((unsigned char)buf[n - 1]), n -= 1;
    buf[n] = 0;
    size_t digits = 0;
    while (digits < n && isdigit((unsigned char)buf[n - 1 - digits]))
        digits++;
    if (!digits || digits > 2 || digits == n)
        return false;
    size_t at = n - digits - 1;
    int used = 0;
    if ((p->to = geo_parse_cell(geo, buf + at, &used)) == CELL_NONE || (size_t)used != digits + 1)
        return false;
    buf[at] = 0;
    if (at && strchr("x:-", buf[at - 1]))
        buf[--at] = 0;
    char *hint = buf;
    if (isupper((unsigned char)*hint))
        p->letter = *hint++;
    return parse_hint(geo, hint, p);
}

/* Whether the legal move is one the pattern may mean; a move that promotes fits a pattern without
 * a promotion only when any_promo. */
static bool san_fits(const struct variant *v, const struct setup *s, move_t m, const struct san_pattern *p,
                     bool any_promo)
{
    if (p->castle) {
        const char *name = castle_name(v, s->side, m);
        return name && !strcmp(name, p->castle);
    }
    struct san_move d = san_describe(v, s, m);
    const struct piece_def *pd = &v->piece[d.type];
    /* Without a letter: a pawn, or with a whole from-cell whatever stands there ("f5-f6"). */
    bool piece = p->letter ? pd->letter == p->letter : p->hint == HINT_CELL || pd->pawn;
    bool promo = p->promo ? d.promo >= 0 && v->piece[d.promo].letter == p->promo : d.promo < 0 || any_promo;
    return piece && promo && d.to == p->to && hint_fits(v->geo.name[d.from], p->hint, p->hint_text);
}

/* The legal moves the pattern may mean: those without a promotion first, if it names none. */
static int san_candidates(const struct game *g, const struct san_pattern *p, move_t *found)
{
    move_t list[MAX_MOVES];
    struct setup s;
    int n = game_legal_moves(g, list), k = 0;
    g->ops->position_get(g->pos, &s);
    for (int pass = 0; pass < 2 && !k; pass++)
        for (int i = 0; i < n; i++)
            if (san_fits(g->v, &s, list[i], p, pass == 1))
                found[k++] = list[i];
    return k;
}

/* Why no legal move fits: a letter naming another piece than the one on a from-cell given whole
 * ("Ne4e5" when a pawn stands on e4) is said so, anything else is an illegal move. */
static void san_refusal(const struct game *g, const struct san_pattern *p, const char *text, char *err, size_t errlen)
{
    const struct variant *v = g->v;
    int from = p->letter && p->hint == HINT_CELL ? geo_parse_cell(&v->geo, p->hint_text, NULL) : CELL_NONE;
    struct setup s;
    if (from != CELL_NONE)
        g->ops->position_get(g->pos, &s);
    if (from != CELL_NONE && !s.piece[from])
        snprintf(err, errlen, "there is no piece on %s, so no %c", v->geo.name[from], p->letter);
    else if (from != CELL_NONE && v->piece[piece_type(s.piece[from])].letter != p->letter)
        snprintf(err, errlen, "the piece on %s is a %s (%c), not %c", v->geo.name[from],
                 v->piece[piece_type(s.piece[from])].name, v->piece[piece_type(s.piece[from])].letter, p->letter);
    else
        snprintf(err, errlen, "illegal move '%s'", text);
}

bool san_read(const struct game *g, const char *text, move_t *m, char *err, size_t errlen)
{
    struct san_pattern p;
    move_t found[MAX_MOVES];
    bool parsed = san_parse(&g->v->geo, text, &p);
    int k = parsed ? san_candidates(g, &p, found) : 0;
    if (k == 1) {
        *m = found[0];
        return true;
    }
    if (!k) {
        if (parsed)
            san_refusal(g, &p, text, err, errlen);
        else
            snprintf(err, errlen, "illegal move '%s'", text);
        return false;
    }
    int len = snprintf(err, errlen, "ambiguous move '%s': it may be", text);
    for (int i = 0; i < k && len > 0 && (size_t)len < errlen; i++) {
        char san[SAN_LEN];
        san_write(g, found[i], san);
        len += snprintf(err + len, errlen - (size_t)len, "%s %s", i ? "," : "", san);
    }
    return false;
}
