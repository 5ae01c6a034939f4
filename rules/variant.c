/* Reads the variant definition format (docs/variant-format.md) into variant tables. */
#include "variant.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

struct parser {
    const char *origin;
    int line;
    char *err;
    size_t errlen;
    int errors, unshown;
    int army;            /* the army the section's lines define (the `army` key) */
    XXH3_state_t *hash;  /* the section's fingerprint so far */
    const char *unhashed; /* the start of the section's text not yet hashed */
};

enum {
    ERR_TAIL = 64,       /* room kept for the "N more errors" line */
    ORIGIN_SHOWN = 256,  /* most characters of the origin (a path) put before a message */
};

/* Adds one whole "origin:line: message" line to the error text, or counts it as not shown. */
static void parse_error(struct parser *p, const char *fmt, ...)
{
    char msg[512];
    /* A path may be longer than msg: cut, it leaves the message room after it. */
    int n = p->line ? snprintf(msg, sizeof msg, "%.*s:%d: ", ORIGIN_SHOWN, p->origin, p->line)
                    : snprintf(msg, sizeof msg, "%.*s: ", ORIGIN_SHOWN, p->origin);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    size_t used = strlen(p->err), need = strlen(msg) + (used ? 1 : 0);
    if (!p->unshown && used + need + ERR_TAIL < p->errlen)
        snprintf(p->err + used, p->errlen - used, "%s%s", used ? "\n" : "", msg);
    else
        p->unshown++;
    p->errors++;
}

static void parse_finish_errors(struct parser *p)
{
    size_t used = strlen(p->err);
    if (p->unshown && used + 2 < p->errlen)
        snprintf(p->err + used, p->errlen - used, "\n%s: %d more error%s not shown", p->origin, p->unshown,
                 p->unshown == 1 ? "" : "s");
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

int variant_army_type(const struct variant *v, int army, char letter)
{
    letter = (char)toupper((unsigned char)letter);
    for (int t = 0; t < v->ntypes; t++)
        if (v->piece[t].letter == letter && v->piece[t].army == army)
            return t;
    return -1;
}

int variant_royal_type(const struct variant *v, int player)
{
    for (int t = 0; t < v->ntypes; t++)
        if (v->piece[t].royal && v->piece[t].army == v->army[player])
            return t;
    return -1;
}

/* The lowest player of an army. */
static int army_first_player(const struct variant *v, int army)
{
    int p = 0;
    while (p < v->nplayers - 1 && v->army[p] != army)
        p++;
    return p;
}

int variant_army_first(const struct variant *v, int player) { return army_first_player(v, v->army[player]); }

int variant_map_cell(const struct variant *v, int cell, int player)
{
    const struct geometry *g = &v->geo;
    struct vec c = { g->q[cell], g->r[cell] };
    int first = variant_army_first(v, player);
    if (player == first)
        return cell;
    if (v->nplayers >= 3) {
        /* Seats are turns about the centre: from the army's first player's seat to the player's. */
        c = geo_rotate(c, (v->rotation[player] - v->rotation[first] + 6) % 6);
    } else if (g->shape == SHAPE_FILES) {
        c = (struct vec){ g->twice_centre.q - c.q, g->twice_centre.r - c.r };  /* their arrays turn half a turn */
    } else if (v->orientation == ORIENT_GLINSKI) {
        c = (struct vec){ c.q, -c.q - c.r };  /* mirror across the centre line, kings stay on a file */
    } else {
        c = (struct vec){ c.q + c.r, -c.r };
    }
    return geo_cell(g, c.q, c.r);
}

/* A decimal number from lo to hi at s; *end past it. A number too large for an int fails here, where
 * sscanf's %d would wrap it into range. */
static bool read_int(const char *s, long lo, long hi, char **end, int *out)
{
    errno = 0;
    long n = strtol(s, end, 10);
    if (*end == s || errno || n < lo || n > hi)
        return false;
    *out = (int)n;
    return true;
}

/* Direction index (0..5) of a relative angle, or -1 if the angle does not fit the atom's kind. */
static int angle_dir(enum orientation o, bool diagonal, int angle)
{
    if (angle % 30)
        return -1;
    /* Glinski: forward is O0 and D0 lies 30 degrees left of it; Wellisch: forward is D0, O0 30 right. */
    int offset;
    if (o == ORIENT_GLINSKI)
        offset = diagonal ? 30 : 0;
    else
        offset = diagonal ? 0 : -30;
    int a = angle - offset;
    if (a % 60)
        return -1;
    return ((a / 60) % 6 + 6) % 6;
}

static void add_leap(struct piece_def *pd, struct vec v, int mode, bool start)
{
    for (int i = 0; i < pd->nleaps; i++) {
        if (pd->leaps[i].dq == v.q && pd->leaps[i].dr == v.r && pd->leaps[i].start == start) {
            pd->leaps[i].mode |= (unsigned char)mode;
            return;
        }
    }
    if (pd->nleaps < MAX_LEAPS)
        pd->leaps[pd->nleaps++] = (struct leap){ (signed char)v.q, (signed char)v.r, (unsigned char)mode, start };
}

/* "@a,b,...": the directions (bit d = direction d of the atom's kind) of a list of angles. */
static bool parse_angles(struct parser *p, const struct variant *v, const char *tok, const char *s, bool diagonal,
                         unsigned *dirs)
{
    *dirs = 0;
    if (!*s) {
        parse_error(p, "no angles after '@' in '%s'", tok);
        return false;
    }
    while (*s) {
        char *end;
        int a;
        /* One turn either way names every direction, and keeps angle_dir's arithmetic in range. */
        int d = read_int(s, -360, 360, &end, &a) ? angle_dir(v->army_orientation[p->army], diagonal, a) : -1;
        if (d < 0 || (*end && *end != ',')) {
            parse_error(p, "bad angle in '%s' (multiples of 60 degrees from the %s steps)", tok,
                        diagonal ? "diagonal" : "orthogonal");
            return false;
        }
        *dirs |= 1u << d;
        s = *end ? end + 1 : end;
    }
    return true;
}

/* Parses one movement token such as "R", "capture:W@60,-60", "move:F", "cR4", "start:capture:F@0". */
static bool parse_atom(struct parser *p, const struct variant *v, struct piece_def *pd, const char *tok)
{
    int mode = MODE_BOTH;
    bool start = !strncmp(tok, "start:", 6);
    if (start)
        tok += 6;
    if (!strncmp(tok, "move:", 5)) {
        mode = MODE_MOVE;
        tok += 5;
    } else if (!strncmp(tok, "capture:", 8)) {
        mode = MODE_CAPTURE;
        tok += 8;
    }
    char atom[8];
    size_t n = strcspn(tok, "@");
    if (n == 0 || n >= sizeof atom) {
        parse_error(p, "bad movement '%s'", tok);
        return false;
    }
    memcpy(atom, tok, n);
    atom[n] = 0;
    /* A curved atom may end in its step limit: cR4 is a Finch of at most four steps. */
    int steps = CURVED_MAX_STEPS;
    if (n == 3 && atom[0] == 'c' && atom[2] >= '1' && atom[2] <= '5') {
        steps = atom[2] - '0';
        atom[2] = 0;
    }
    enum { LEAP_W, LEAP_D, LEAP_H, SLIDE_R, LEAP_F, SLIDE_B, LEAP_N, RIDE_NN, CURVED_R, CURVED_B, HOP_R, HOP_B,
           PATH_FIRST };
    static const char *const atoms[] = { "W", "D", "H", "R", "F", "B", "N", "NN", "cR", "cB", "hR", "hB",
                                         "lzR", "szR", "zR", "gB", "jB", "lzB", "szB", "zB", "gR", "jR" };
    /* The path atoms from PATH_FIRST on: their kinds (geometry.h), those from PATH_DIAG on starting
     * with a diagonal step. */
    enum { PATH_DIAG = PATH_FIRST + 5 };
    static const unsigned path_kinds[] = {
        1u << PATH_LONG, 1u << PATH_SHORT, (1u << PATH_LONG) | (1u << PATH_SHORT), 1u << PATH_BENT, 1u << PATH_JOINED,
    };
    int kind = -1;
    for (int i = 0; i < (int)(sizeof atoms / sizeof *atoms); i++)
        if (!strcmp(atom, atoms[i]))
            kind = i;
    if (kind < 0) {
        parse_error(p, "unknown movement atom '%s'", atom);
        return false;
    }
    bool diagonal = kind == LEAP_F || kind == SLIDE_B || kind == CURVED_B || kind == HOP_B || kind >= PATH_DIAG;
    if (start && kind != LEAP_W && kind != LEAP_D && kind != LEAP_H && kind != LEAP_F && kind != LEAP_N) {
        parse_error(p, "'start:' applies to leaps only (W F D H N), not '%s'", atom);
        return false;
    }
    if (kind == CURVED_R || kind == CURVED_B) {
        unsigned char *limit = &pd->curved_steps[diagonal];
        if (*limit && *limit != steps) {
            parse_error(p, "two step limits for the curved %s atom", diagonal ? "diagonal" : "orthogonal");
            return false;
        }
        *limit = (unsigned char)steps;
    }
    unsigned dirs = 0x3f;
    if (tok[n] == '@') {
        if (kind == LEAP_N || kind == RIDE_NN) {
            parse_error(p, "atom '%s' takes no angles", atom);
            return false;
        }
        if (!parse_angles(p, v, tok, tok + n + 1, diagonal, &dirs))
            return false;
    }
    for (int d = 0; d < 6; d++) {
        if (!(dirs & (1u << d)))
            continue;
        struct vec o = geo_orth[d], f = geo_diag[d];
        unsigned straight = 1u << ((diagonal ? DIR_DIAG : DIR_ORTH) + d);
        switch (kind) {
        case LEAP_W: add_leap(pd, o, mode, start); break;
        case LEAP_D: add_leap(pd, (struct vec){ 2 * o.q, 2 * o.r }, mode, start); break;
        case LEAP_H: add_leap(pd, (struct vec){ 3 * o.q, 3 * o.r }, mode, start); break;
        case LEAP_F: add_leap(pd, f, mode, start); break;
        case LEAP_N: add_leap(pd, geo_root7[2 * d], mode, start); add_leap(pd, geo_root7[2 * d + 1], mode, start); break;
        case SLIDE_R: case SLIDE_B: pd->slide[mode] |= straight; break;
        case RIDE_NN: pd->ride[mode] |= 3u << (2 * d); break;
        case CURVED_R: case CURVED_B: pd->curved[mode] |= straight; break;
        /* A hopper moves as the slider and captures only by hopping a screen. */
        case HOP_R: case HOP_B:
            if (mode & MODE_MOVE)
                pd->slide[MODE_MOVE] |= straight;
            if (mode & MODE_CAPTURE)
                pd->hop |= straight;
            break;
        default: /* a path atom */
            for (unsigned kinds = path_kinds[(kind - PATH_FIRST) % 5]; kinds; kinds &= kinds - 1)
                pd->path[__builtin_ctz(kinds)][mode] |= straight;
        }
    }
    return true;
}

/* A direction usable both ways is stored once, under MODE_BOTH. */
static void merge_modes(unsigned m[4])
{
    unsigned both = (m[MODE_MOVE] & m[MODE_CAPTURE]) | m[MODE_BOTH];
    m[MODE_BOTH] = both;
    m[MODE_MOVE] &= ~both;
    m[MODE_CAPTURE] &= ~both;
}

static bool promotes_to(const struct variant *v, int type)
{
    for (int i = 0; i < v->npromo; i++)
        if (v->promo[i] == type)
            return true;
    return false;
}

/* Whether the type fuses with some other type (as a simple piece). */
static bool has_partner(const struct variant *v, int type)
{
    for (int t = 0; t < MAX_TYPES; t++)
        if (v->fuse[type][t])
            return true;
    return false;
}

static bool fuses(const struct variant *v, int type)
{
    return has_partner(v, type) || variant_is_compound(v, type);
}

static void parse_piece(struct parser *p, struct variant *v, char *val)
{
    char *save, *name = strtok_r(val, " \t", &save), *letter = strtok_r(NULL, " \t", &save);
    if (!name || !letter || strlen(letter) != 1 || !isalpha((unsigned char)letter[0])) {
        parse_error(p, "piece needs: name LETTER movement...");
        return;
    }
    if (strlen(name) >= NAME_LEN) {
        parse_error(p, "piece name too long");
        return;
    }
    struct piece_def pd = { .letter = (char)toupper((unsigned char)letter[0]), .army = (unsigned char)p->army };
    strcpy(pd.name, name);
    bool moves = false;
    for (char *tok; (tok = strtok_r(NULL, " \t", &save));) {
        if (!strcmp(tok, "royal")) {
            pd.royal = true;
        } else if (!strcmp(tok, "pawn")) {
            pd.pawn = true;
        } else if (!strcmp(tok, "double") || !strncmp(tok, "double@", 7)) {
            unsigned dirs = 0x3f;
            if (tok[6] && !parse_angles(p, v, tok, tok + 7, false, &dirs))
                return;
            pd.double_step = true;
            pd.double_dirs = (unsigned char)dirs;
        } else if (!strcmp(tok, "centreward")) {
            if (v->army_orientation[p->army] != ORIENT_GLINSKI) {
                parse_error(p, "centreward needs orientation glinski (files run along the first player's forward)");
                return;
            }
            pd.centreward = true;
        } else if (!strcmp(tok, "ep")) {
            pd.en_passant = true;
        } else if (!strcmp(tok, "blocked")) {
            pd.blocked = true;
        } else if (!parse_atom(p, v, &pd, tok)) {
            return;
        } else {
            moves = true;
        }
    }
    if (!moves) {
        parse_error(p, "piece '%s' has no movement", name);
        return;
    }
    merge_modes(pd.slide);
    merge_modes(pd.ride);
    merge_modes(pd.curved);
    for (int k = 0; k < PATH_KINDS; k++)
        merge_modes(pd.path[k]);
    int t = variant_army_type(v, p->army, pd.letter);
    /* promotion and fusion checked their types when read: a type they name may not turn royal or pawn. */
    if (t >= 0 && (pd.royal || pd.pawn) && (promotes_to(v, t) || fuses(v, t))) {
        parse_error(p, "piece '%c' is in the promotion list or a fusion, so it cannot become royal or a pawn",
                    pd.letter);
        return;
    }
    for (int o = 0; o < v->ntypes; o++) {
        if (o != t && v->piece[o].army == p->army && !strcmp(v->piece[o].name, pd.name)) {
            parse_error(p, "two pieces named '%s' (keys are made from names)", pd.name);
            return;
        }
    }
    if (t < 0) {
        if (v->ntypes == MAX_TYPES) {
            parse_error(p, "more than %d piece types", MAX_TYPES);
            return;
        }
        t = v->ntypes++;
    }
    v->piece[t] = pd;
}

/* fusion = R+U=D F+I=C ...: which two simple pieces fuse into which compound. */
static void parse_fusion(struct parser *p, struct variant *v, char *val)
{
    /* The army's list replaces its own fusions only (a type fuses within its army). */
    for (int a = 0; a < MAX_TYPES; a++)
        if (v->piece[a].army == p->army) {
            for (int b = 0; b < MAX_TYPES; b++)
                v->fuse[a][b] = v->fuse[b][a] = 0;
            v->component[a][0] = v->component[a][1] = 0;
        }
    char *save;
    for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        int a = -1, b = -1, c = -1;
        if (strlen(tok) == 5 && tok[1] == '+' && tok[3] == '=') {
            a = variant_army_type(v, p->army, tok[0]);
            b = variant_army_type(v, p->army, tok[2]);
            c = variant_army_type(v, p->army, tok[4]);
        }
        if (a < 0 || b < 0 || c < 0 || a == b || c == a || c == b) {
            parse_error(p, "bad fusion '%s' (X+Y=Z with three different piece letters)", tok);
            return;
        }
        const int types[3] = { a, b, c };
        for (int i = 0; i < 3; i++)
            if (v->piece[types[i]].royal || v->piece[types[i]].pawn) {
                parse_error(p, "fusion '%s': royal pieces and pawns do not fuse", tok);
                return;
            }
        if (v->fuse[a][b] || variant_is_compound(v, a) || variant_is_compound(v, b) || has_partner(v, c)) {
            parse_error(p, "fusion '%s': each pair fuses once, and a compound fuses no further", tok);
            return;
        }
        unsigned char *parts = v->component[c];
        int k = 0;
        while (k < 2 * FUSION_PAIRS && parts[k])
            k++;
        /* A second pair may form the same compound (divergent Fusion), but it must divide unambiguously. */
        if (k == 2 * FUSION_PAIRS || memchr(parts, a + 1, (size_t)k) || memchr(parts, b + 1, (size_t)k)) {
            parse_error(p, "fusion '%s': a compound is formed by at most %d pairs, which share no piece", tok,
                        FUSION_PAIRS);
            return;
        }
        v->fuse[a][b] = v->fuse[b][a] = (unsigned char)(c + 1);
        parts[k] = (unsigned char)((a < b ? a : b) + 1);
        parts[k + 1] = (unsigned char)((a < b ? b : a) + 1);
    }
}

/* values = P:1 B:3 ...: piece values in pawns, as a page gives them. */
static void parse_values(struct parser *p, struct variant *v, char *val)
{
    char *save;
    for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        char *end;
        int t = tok[0] && tok[1] == ':' ? variant_army_type(v, p->army, tok[0]) : -1;
        double x = t >= 0 ? strtod(tok + 2, &end) : 0;
        if (t < 0 || end == tok + 2 || *end || !(x > 0 && x < 1000)) {
            parse_error(p, "bad value '%s' (LETTER:pawns, e.g. Q:9)", tok);
            return;
        }
        v->piece[t].value = x;
    }
}

/* promotion = Q R B N: the army's list, replaced (other armies' entries stay). A type listed twice is
 * refused: listing each type once, the list fits promo[MAX_TYPES]. */
static void parse_promotion(struct parser *p, struct variant *v, char *val)
{
    int kept = 0;
    for (int i = 0; i < v->npromo; i++)
        if (v->piece[v->promo[i]].army != p->army)
            v->promo[kept++] = v->promo[i];
    v->npromo = kept;
    for (const char *s = val; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        int t = variant_army_type(v, p->army, *s);
        if (t < 0 || v->piece[t].royal || v->piece[t].pawn) {
            parse_error(p, "promotion piece '%c' is not a non-royal, non-pawn piece", *s);
            return;
        }
        for (int i = 0; i < v->npromo; i++)
            if (v->promo[i] == t) {
                parse_error(p, "promotion piece '%c' listed twice", *s);
                return;
            }
        v->promo[v->npromo++] = t;
    }
}

/* One cell name, or CELL_NONE after reporting it. */
static int parse_cell(struct parser *p, const struct variant *v, const char *tok)
{
    int len = 0, c = geo_parse_cell(&v->geo, tok, &len);
    if (c == CELL_NONE || tok[len]) {
        parse_error(p, "no cell '%s' on this board", tok);
        return CELL_NONE;
    }
    return c;
}

/* double-step = cells, triple-step = cells, double-step-of = LETTER cells: the cells of the army's first
 * player from which a pawn (kind 0: of any type; else only of type kind - 1) may take up to `steps` steps in
 * one line; replaces the cells of that list. */
static void parse_step_cells(struct parser *p, struct variant *v, char *val, unsigned char steps, unsigned char kind)
{
    char *save;
    int first = army_first_player(v, p->army);
    unsigned char *cells = v->double_cell[first], *kinds = v->double_kind[first];
    for (int c = 0; c < MAX_CELLS; c++)
        if (cells[c] == steps && kinds[c] == kind)
            cells[c] = kinds[c] = 0;
    for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        int c = parse_cell(p, v, tok);
        if (c == CELL_NONE)
            return;
        if (cells[c]) {
            parse_error(p, kinds[c] || kind ? "cell %s is in two lists of double-step cells"
                                            : "cell %s is both a double-step and a triple-step cell", tok);
            return;
        }
        cells[c] = steps;
        kinds[c] = kind;
    }
}

static void parse_double_step(struct parser *p, struct variant *v, char *val) { parse_step_cells(p, v, val, 2, 0); }
static void parse_triple_step(struct parser *p, struct variant *v, char *val) { parse_step_cells(p, v, val, 3, 0); }

/* double-step-of = LETTER cells: double-step cells of that pawn type only (ND Trios: each pawn kind's start
 * cells behind one of its own kind). */
static void parse_double_step_of(struct parser *p, struct variant *v, char *val)
{
    int t = val[0] && (!val[1] || isspace((unsigned char)val[1])) ? variant_army_type(v, p->army, val[0]) : -1;
    if (t < 0 || !v->piece[t].pawn || !v->piece[t].double_step)
        parse_error(p, "double-step-of needs the letter of a pawn with a double step, then cells");
    else
        parse_step_cells(p, v, val + 1, 2, (unsigned char)(t + 1));
}

/* How many steps u takes from `from` to `cell` (0 for the cell itself), or -1 off that ray. */
static int steps_along(const struct geometry *g, int from, struct vec u, int cell)
{
    int dq = g->q[cell] - g->q[from], dr = g->r[cell] - g->r[from];
    int k = u.q ? dq / u.q : dr / u.r;
    return k >= 0 && dq == k * u.q && dr == k * u.r ? k : -1;
}

/* One rule's four cells: the rook on an orthogonal ray from the royal, both targets on that ray no
 * farther than the rook, the royal's nearer the rook than the rook's, so the two pass each other. */
static bool castle_line_ok(const struct geometry *g, const struct castle_rule *r)
{
    for (int d = 0; d < 6; d++) {
        int rook = steps_along(g, r->royal, geo_orth[d], r->rook);
        if (rook < 1)
            continue;
        int king_to = steps_along(g, r->royal, geo_orth[d], r->royal_to);
        int rook_to = steps_along(g, r->royal, geo_orth[d], r->rook_to);
        return rook_to >= 0 && king_to > rook_to && king_to <= rook;
    }
    return false;
}

/* castling = royal rook royal-to rook-to, ...: the first player's rules; replaces the list. */
static void parse_castling(struct parser *p, struct variant *v, char *val)
{
    v->ncastles = 0;
    if (!strcmp(val, "-"))
        return;
    char *save;
    for (char *text = strtok_r(val, ",", &save); text; text = strtok_r(NULL, ",", &save)) {
        char words[2048], *save2;
        int cell[4], n = 0;
        text = trim(text);
        strcpy(words, text);
        for (char *tok = strtok_r(words, " \t", &save2); tok && n <= 4; tok = strtok_r(NULL, " \t", &save2)) {
            if (n == 4) {
                n++;
                break;
            }
            if ((cell[n++] = parse_cell(p, v, tok)) == CELL_NONE)
                return;
        }
        if (n != 4) {
            parse_error(p, "castling rule '%s' needs four cells: royal rook royal-to rook-to", text);
            return;
        }
        struct castle_rule r = { (unsigned char)cell[0], (unsigned char)cell[1], (unsigned char)cell[2],
                                 (unsigned char)cell[3] };
        if (!castle_line_ok(&v->geo, &r)) {
            parse_error(p, "castling rule '%s': the royal and the rook must stand on one orthogonal line, with "
                           "both targets on it between or on them, the royal's nearer the rook", text);
            return;
        }
        for (int i = 0; i < v->ncastles; i++) {
            const struct castle_rule *o = &v->castle[0][i];
            /* Rules may share targets (two rooks on one edge): the nearer rook blocks the farther's way. A
             * rook may castle by two rules (short and long), which share its right. */
            const char *why = o->royal != r.royal ? "every rule starts from the same royal cell"
                              : o->rook == r.rook && o->royal_to == r.royal_to ? "a rook's rules need different targets"
                                                                               : NULL;
            if (why) {
                parse_error(p, "castling rule '%s': %s", text, why);
                return;
            }
        }
        if (v->ncastles == MAX_CASTLES) {
            parse_error(p, "more than %d castling rules", MAX_CASTLES);
            return;
        }
        v->castle[0][v->ncastles++] = r;
    }
}

/* Lower-case words of letters and digits joined by single '-'. */
static bool valid_name(const char *s)
{
    if (!*s || strlen(s) >= NAME_LEN || *s == '-' || s[strlen(s) - 1] == '-' || strstr(s, "--"))
        return false;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
            return false;
    return true;
}

/* Two players face each other, three sit a third of a turn apart; four have no symmetric seats, so
 * their `seats` line is required (SEAT_UNSET until then). Every player starts in army 0. */
enum { SEAT_UNSET = -1 };

static void set_players(struct variant *v, int n)
{
    static const char *const letters[] = { [2] = "wb", [3] = "rwb", [4] = "wrbg" };
    static const int seats[][MAX_PLAYERS] = { [2] = { 0, 3 }, [3] = { 0, 2, 4 },
                                              [4] = { 0, SEAT_UNSET, SEAT_UNSET, SEAT_UNSET } };
    v->nplayers = n;
    memcpy(v->colour_letter, letters[n], (size_t)n);
    memcpy(v->rotation, seats[n], sizeof v->rotation);
    v->narmies = 1;
    memset(v->army, 0, sizeof v->army);
}


static void parse_description(struct parser *p, struct variant *v, char *val)
{
    (void)p;
    snprintf(v->description, sizeof v->description, "%s", val);
}

/* piece-description = LETTER text: how the army's piece of that letter moves, in words (the GUI's piece
 * guide). A `piece` line that redefines the piece clears it. */
static void parse_piece_description(struct parser *p, struct variant *v, char *val)
{
    int t = val[0] && isspace((unsigned char)val[1]) ? variant_army_type(v, p->army, val[0]) : -1;
    const char *text = t >= 0 ? trim(val + 1) : "";
    if (!*text)
        parse_error(p, "piece-description needs the letter of a piece of the army, then its description");
    else if (strlen(text) >= PIECE_DESCRIPTION_LEN)
        parse_error(p, "piece description of '%c' longer than %d characters", v->piece[t].letter,
                    PIECE_DESCRIPTION_LEN - 1);
    else
        strcpy(v->piece[t].description, text);
}

/* One file of a board given by files: "a1-a6", a letter's first and last rank. */
static bool read_board_file(const char *tok, struct board_file *f)
{
    char *end;
    f->letter = tok[0];
    return tok[0] >= 'a' && tok[0] <= 'z' && read_int(tok + 1, 1, MAX_RANK, &end, &f->first) && end[0] == '-'
           && end[1] == tok[0] && read_int(end + 2, 1, MAX_RANK, &end, &f->last) && !*end;
}

/* board = files <file-step angle> <rank-step angle> <file>...: the angles are orthogonal directions
 * relative to the first player's forward, so they read with the orientation set before. */
static bool read_files_board(const struct variant *v, char *val, struct geometry *g)
{
    char *save, *tok = strtok_r(val, " \t", &save), *end;
    int angle, dir[2];
    if (!tok || strcmp(tok, "files"))
        return false;
    for (int i = 0; i < 2; i++) {
        tok = strtok_r(NULL, " \t", &save);
        if (!tok || !read_int(tok, -360, 360, &end, &angle) || *end || (dir[i] = angle_dir(v->orientation, false, angle)) < 0)
            return false;
    }
    if (dir[0] % 3 == dir[1] % 3)
        return false;  /* parallel steps lay no board out */
    struct board_file files[26];
    int n = 0;
    while ((tok = strtok_r(NULL, " \t", &save)))
        if (n == 26 || !read_board_file(tok, &files[n++]))
            return false;
    return geo_init_files(g, geo_orth[dir[0]], geo_orth[dir[1]], files, n);
}

static void parse_board(struct parser *p, struct variant *v, char *val)
{
    int size = 0;
    char *end;
    struct geometry g;
    bool ok = !strcmp(val, "star") ? geo_init(&g, SHAPE_STAR, 0)
              : !strncmp(val, "hexagon", 7) ? read_int(val + 7, INT_MIN, INT_MAX, &end, &size) && !*end
                                                  && geo_init(&g, SHAPE_HEXAGON, size)
                                            : read_files_board(v, val, &g);
    if (!ok) {
        parse_error(p, "board must be 'hexagon N' (N = 2..9), 'star' or 'files <angle> <angle> <file>...' "
                       "(docs/variant-format.md)");
    } else if (!geo_same(&g, &v->geo)) {
        /* Inherited cells mean nothing on another board. */
        memset(v->double_cell, 0, sizeof v->double_cell);
        memset(v->double_kind, 0, sizeof v->double_kind);
        v->ncastles = 0;
        v->geo = g;
    }
}

static bool army_has_pieces(const struct variant *v, int army)
{
    for (int t = 0; t < v->ntypes; t++)
        if (v->piece[t].army == army)
            return true;
    return false;
}

static void parse_orientation(struct parser *p, struct variant *v, char *val)
{
    enum orientation o = !strcmp(val, "glinski") ? ORIENT_GLINSKI : ORIENT_WELLISCH, *now = &v->army_orientation[p->army];
    if (strcmp(val, "glinski") && strcmp(val, "wellisch"))
        parse_error(p, "orientation must be glinski or wellisch");
    else if (o != *now && army_has_pieces(v, p->army))
        parse_error(p, "orientation must come before the pieces (their angles depend on it)");
    else if (o != *now && p->army == 0 && v->geo.shape == SHAPE_FILES)
        parse_error(p, "orientation must come before a board given by files (its angles depend on it)");
    else if (p->army == 0)
        v->orientation = *now = o;
    else
        *now = o;
}

static void parse_players(struct parser *p, struct variant *v, char *val)
{
    if (strcmp(val, "2") && strcmp(val, "3") && strcmp(val, "4")) {
        parse_error(p, "players must be 2, 3 or 4");
    } else if (p->army) {
        parse_error(p, "players must come before the armies");
    } else if (val[0] - '0' != v->nplayers) {
        memset(v->double_cell[1], 0, sizeof v->double_cell - sizeof v->double_cell[0]);
        memset(v->double_kind[1], 0, sizeof v->double_kind - sizeof v->double_kind[0]);
        set_players(v, val[0] - '0');
    }
}

/* seats = 0 120 180 300: with four players, each player's turn (degrees counter-clockwise) of its army's
 * pieces and cells as written; the army's first player's cells are mapped by the difference. */
static void parse_seats(struct parser *p, struct variant *v, char *val)
{
    int seat[MAX_PLAYERS], n = 0, a;
    char *save, *end;
    for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (n == v->nplayers || !read_int(tok, 0, 300, &end, &a) || *end || a % 60) {
            n = -1;
            break;
        }
        seat[n++] = a / 60;
    }
    if (v->nplayers != 4)
        parse_error(p, "seats are set for four players only (two and three sit symmetrically)");
    else if (n != v->nplayers || seat[0])
        parse_error(p, "seats must be one angle per player, multiples of 60 from 0 to 300, the first 0");
    else
        memcpy(v->rotation, seat, sizeof seat);
}

/* army = r g: the lines that follow define the army of these players (a new one, or the one they already
 * form), written for the first of them; until the first `army` line every player is in army 0. */
static void parse_army(struct parser *p, struct variant *v, char *val)
{
    unsigned players = 0;
    for (const char *s = val; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        const char *at = memchr(v->colour_letter, *s, (size_t)v->nplayers);
        if (!at || at == v->colour_letter) {
            parse_error(p, "army needs colour letters of players other than the first (%.*s)", v->nplayers,
                        v->colour_letter);
            return;
        }
        players |= 1u << (at - v->colour_letter);
    }
    unsigned armies = 0, same = 0;
    for (int pl = 0; pl < v->nplayers; pl++)
        armies |= (players >> pl & 1) << v->army[pl];
    int army = players ? __builtin_ctz(armies) : 0;
    for (int pl = 0; pl < v->nplayers; pl++)
        same |= (unsigned)(v->army[pl] == army) << pl;
    if (!players) {
        parse_error(p, "army needs colour letters of players other than the first (%.*s)", v->nplayers,
                    v->colour_letter);
    } else if (armies != 1u << army || (army && same != players)) {
        parse_error(p, "army '%s': its players must all be in the first army, or form one army already", val);
    } else if (army) {
        p->army = army;
    } else {
        p->army = v->narmies++;
        for (int pl = 0; pl < v->nplayers; pl++)
            if (players >> pl & 1)
                v->army[pl] = p->army;
        v->army_orientation[p->army] = v->orientation;
        memset(v->double_cell[army_first_player(v, p->army)], 0, sizeof v->double_cell[0]);
        memset(v->double_kind[army_first_player(v, p->army)], 0, sizeof v->double_kind[0]);
    }
}

static void parse_start(struct parser *p, struct variant *v, char *val)
{
    if (strlen(val) >= sizeof v->start_fen)
        parse_error(p, "start FEN too long");
    else
        strcpy(v->start_fen, val);
}

static void parse_promotion_limit(struct parser *p, struct variant *v, char *val)
{
    int n;
    char *end;
    if (!read_int(val, 1, 99, &end, &n) || *end)
        parse_error(p, "promotion-limit must be a number from 1 to 99");
    else
        v->promo_limit = n;
}

static void parse_stalemate(struct parser *p, struct variant *v, char *val)
{
    int a, b;
    char *end;
    if (!read_int(val, 0, INT_MAX, &end, &a) || *end != '/' || !read_int(end + 1, 1, INT_MAX, &end, &b) || *end
        || a > b)
        parse_error(p, "stalemate must be a fraction such as 1/2 or 3/4");
    else
        v->stalemate_num = a, v->stalemate_den = b;
}

/* Every key of a section and the reader of its value, in the order of docs/variant-format.md. */
static const struct key {
    const char *name;
    void (*parse)(struct parser *p, struct variant *v, char *val);
} keys[] = {
    { "description",     parse_description },
    { "board",           parse_board },
    { "orientation",     parse_orientation },
    { "players",         parse_players },
    { "seats",           parse_seats },
    { "army",            parse_army },
    { "piece",           parse_piece },
    { "piece-description", parse_piece_description },
    { "promotion",       parse_promotion },
    { "double-step",     parse_double_step },
    { "triple-step",     parse_triple_step },
    { "double-step-of",  parse_double_step_of },
    { "castling",        parse_castling },
    { "start",           parse_start },
    { "promotion-limit", parse_promotion_limit },
    { "fusion",          parse_fusion },
    { "values",          parse_values },
    { "stalemate",       parse_stalemate },
};

static void parse_key(struct parser *p, struct variant *v, const char *name, char *val)
{
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (!strcmp(keys[k].name, name)) {
            keys[k].parse(p, v, val);
            return;
        }
    parse_error(p, "unknown key '%s'", name);
}

static void derive(struct variant *v)
{
    for (int pl = 1; pl < v->nplayers; pl++) {
        int first = variant_army_first(v, pl);
        if (first == pl)
            continue;
        memset(v->double_cell[pl], 0, sizeof v->double_cell[pl]);
        memset(v->double_kind[pl], 0, sizeof v->double_kind[pl]);
        for (int c = 0; c < v->geo.ncells; c++)
            if (v->double_cell[first][c]) {
                int m = variant_map_cell(v, c, pl);
                if (m != CELL_NONE) {
                    v->double_cell[pl][m] = v->double_cell[first][c];
                    v->double_kind[pl][m] = v->double_kind[first][c];
                }
            }
        /* Every board is symmetric under the players' maps, so no castling cell leaves it. */
        for (int i = 0; i < v->ncastles; i++) {
            const struct castle_rule *r = &v->castle[0][i];
            v->castle[pl][i] = (struct castle_rule){
                (unsigned char)variant_map_cell(v, r->royal, pl), (unsigned char)variant_map_cell(v, r->rook, pl),
                (unsigned char)variant_map_cell(v, r->royal_to, pl), (unsigned char)variant_map_cell(v, r->rook_to, pl)
            };
        }
    }
}

/* Whether the royal piece of the player moves from one cell to the other without capturing on an empty
 * board: by a leap, a double step, a slide or a curved path. (A root-7 line never runs along an
 * orthogonal, where castling targets lie.) */
static bool royal_reaches(const struct variant *v, int player, int from, int to)
{
    const struct geometry *g = &v->geo;
    const struct piece_def *pd = &v->piece[variant_royal_type(v, player)];
    int rot = v->rotation[player];
    for (int i = 0; i < pd->nleaps; i++) {
        struct leap l = pd->leaps[i];
        struct vec u = geo_rotate((struct vec){ l.dq, l.dr }, rot);
        bool doubles = false;
        for (int d = 0; d < 6 && pd->double_step; d++)
            doubles |= (pd->double_dirs >> d & 1) && geo_orth[d].q == l.dq && geo_orth[d].r == l.dr;
        int k = steps_along(g, from, u, to);
        int most = variant_double_steps(v, player, variant_royal_type(v, player), from);
        if ((l.mode & MODE_MOVE) && (k == 1 || (k >= 2 && doubles && k <= most)))
            return true;
    }
    unsigned slides = pd->slide[MODE_MOVE] | pd->slide[MODE_BOTH];
    unsigned curved = pd->curved[MODE_MOVE] | pd->curved[MODE_BOTH];
    unsigned paths[PATH_KINDS] = { 0 };
    bool reach[MAX_CELLS] = { false };
    for (int d = 0; d < NUM_STRAIGHT; d++) {
        int base = d < DIR_DIAG ? DIR_ORTH : DIR_DIAG, turned = base + (d - base + rot) % 6, cells[CURVED_MAX_STEPS];
        for (int k = 0; k < PATH_KINDS; k++)
            paths[k] |= ((pd->path[k][MODE_MOVE] | pd->path[k][MODE_BOTH]) >> d & 1u) << turned;
        if ((slides >> d & 1) && steps_along(g, from, geo_straight(turned), to) > 0)
            return true;
        for (int sense = -1; (curved >> d & 1) && sense <= 1; sense += 2) {
            int n = geo_curved_path(g, from, turned, sense, cells);
            for (int k = 0; k < n && k < pd->curved_steps[d >= DIR_DIAG]; k++)
                if (cells[k] == to)
                    return true;
        }
    }
    geo_path_reach(g, from, paths, reach);
    return reach[to];
}

/* Castling's move is written as the royal's own move (protocol.md), so no ordinary move of the royal
 * may share it. */
static void check_castling(struct parser *p, const struct variant *v)
{
    if (variant_royal_type(v, 0) < 0)
        return;
    const struct geometry *g = &v->geo;
    for (int i = 0; i < v->ncastles; i++)
        for (int pl = 0; pl < v->nplayers; pl++) {
            const struct castle_rule *r = &v->castle[pl][i];
            if (royal_reaches(v, pl, r->royal, r->royal_to)) {
                parse_error(p, "variant '%s': castling %s%s is also an ordinary move of the royal piece (its target "
                               "must be out of the royal's reach)", v->name, g->name[r->royal], g->name[r->royal_to]);
                break;
            }
        }
}

/* A board given by files serves two players and is its own image under the second player's map. */
static bool files_board_fits(const struct variant *v)
{
    for (int c = 0; c < v->geo.ncells && v->nplayers == 2; c++)
        if (variant_map_cell(v, c, 1) == CELL_NONE)
            return false;
    return v->nplayers == 2;
}

static void check_complete(struct parser *p, const struct variant *v)
{
    if (!v->geo.ncells)
        parse_error(p, "variant '%s' has no board", v->name);
    if (!v->ntypes)
        parse_error(p, "variant '%s' has no pieces", v->name);
    for (int a = 0; a < v->narmies; a++) {
        int royals = 0, promos = 0;
        bool pawns = false, pieces = false;
        for (int t = 0; t < v->ntypes; t++) {
            royals += v->piece[t].royal && v->piece[t].army == a;
            pawns |= v->piece[t].pawn && v->piece[t].army == a;
            pieces |= v->piece[t].army == a;
        }
        for (int i = 0; i < v->npromo; i++)
            promos += v->piece[v->promo[i]].army == a;
        /* Army 0's messages read as they did before armies existed. */
        char which[32] = "";
        if (a)
            snprintf(which, sizeof which, " (army of %c)", v->colour_letter[army_first_player(v, a)]);
        if (royals != 1 && (pieces || !a))
            parse_error(p, "variant '%s' needs exactly one royal piece type%s", v->name, which);
        if (pawns && !promos)
            parse_error(p, "variant '%s' has pawns but no promotion list%s", v->name, which);
        if (a && !pieces)
            parse_error(p, "variant '%s' has no pieces%s", v->name, which);
    }
    for (int pl = 0; pl < v->nplayers; pl++)
        if (v->rotation[pl] == SEAT_UNSET) {
            parse_error(p, "variant '%s': four players need their seats (seats = 0 120 180 300)", v->name);
            break;
        }
    if (v->ncastles && v->narmies > 1)
        parse_error(p, "variant '%s': castling is for variants of one army", v->name);
    if (!v->start_fen[0])
        parse_error(p, "variant '%s' has no start position", v->name);
    if (v->geo.shape == SHAPE_FILES && !files_board_fits(v))
        parse_error(p, "variant '%s': a board given by files needs 2 players and must look the same turned half "
                       "a turn (its second army's cells are the first's turned)", v->name);
}

/* A piece's description is no rule: its line is left out of the fingerprint, so nets and books built
 * for a definition stay valid when its words change. */
static void hash_skip_line(struct parser *p, const char *line, const char *next)
{
    XXH3_64bits_update(p->hash, p->unhashed, (size_t)(line - p->unhashed));
    p->unhashed = next;
}

static void section_end(struct parser *p, struct variant *v, const char *end)
{
    int errors = p->errors;
    check_complete(p, v);
    XXH3_64bits_update(p->hash, p->unhashed, (size_t)(end - p->unhashed));
    v->fingerprint = XXH3_64bits_digest(p->hash);
    /* An incomplete section's seats, royal or board may be unset, which the derived cells and the
     * castling check would read. */
    if (p->errors > errors)
        return;
    derive(v);
    check_castling(p, v);
}

static const struct variant *find_in(const char *name, struct variant **list, int n,
                                     const struct variant *const *known, int nknown)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i]->name, name))
            return list[i];
    for (int i = 0; i < nknown; i++)
        if (!strcmp(known[i]->name, name))
            return known[i];
    return NULL;
}

static void section_start(struct parser *p, struct variant *v, char *head, struct variant **out, int n,
                          const struct variant *const *known, int nknown)
{
    char *colon = strchr(head, ':');
    if (colon)
        *colon = 0;
    char *name = trim(head), *parent = colon ? trim(colon + 1) : NULL;
    const struct variant *base = NULL;
    if (parent && !(base = find_in(parent, out, n, known, nknown)))
        parse_error(p, "unknown parent variant '%s'", parent);
    p->army = 0;
    if (base) {
        *v = *base;
        /* The parent's keys are its own; the child gets its block when it is registered. */
        v->keys = NULL;
        memset(v->key_piece, 0, sizeof v->key_piece);
        v->description[0] = 0;
        snprintf(v->parent, sizeof v->parent, "%s", parent);
    } else {
        memset(v, 0, sizeof *v);
        set_players(v, 2);
        v->army_orientation[0] = v->orientation;
        v->stalemate_num = 1;
        v->stalemate_den = 2;
    }
    if (!valid_name(name))
        parse_error(p, "bad variant name '%s' (lower-case words joined by '-')", name);
    else if (find_in(name, out, n, known, nknown))
        parse_error(p, "variant '%s' is already defined", name);
    snprintf(v->name, sizeof v->name, "%s", name);
}

int variant_parse(const char *text, const char *origin, struct variant **out, int max,
                  const struct variant *const *known, int nknown, char *err, size_t errlen)
{
    struct parser p = { .origin = origin, .err = err, .errlen = errlen, .hash = XXH3_createState() };
    err[0] = 0;
    if (!p.hash) {
        parse_error(&p, "out of memory");
        return -1;
    }
    int n = 0;
    struct variant *cur = NULL;
    const char *s = text;
    char line[2048];
    while (*s) {
        size_t len = strcspn(s, "\n");
        p.line++;
        if (len >= sizeof line) {
            parse_error(&p, "line too long");
            len = sizeof line - 1;
        }
        memcpy(line, s, len);
        line[len] = 0;
        const char *next = s[len] ? s + len + 1 : s + len;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *l = trim(line);
        if (*l == '[') {
            char *close = strchr(l, ']');
            if (cur)
                section_end(&p, cur, s);
            if (!close || trim(close + 1)[0]) {
                parse_error(&p, "bad section header");
                cur = NULL;
            } else if (n == max) {
                parse_error(&p, "too many variants");
                cur = NULL;
            } else {
                *close = 0;
                /* section_start writes all of it: a copy of the parent or zeros. */
                cur = out[n] = malloc(sizeof **out);
                if (!cur) {
                    parse_error(&p, "out of memory");
                    break;
                }
                section_start(&p, cur, l + 1, out, n, known, nknown);
                n++;
                /* A child's fingerprint covers its parent's definition too. */
                XXH3_64bits_reset_withSeed(p.hash, cur->parent[0] ? cur->fingerprint : 0);
                p.unhashed = s;
            }
        } else if (*l) {
            char *eq = strchr(l, '=');
            if (eq)
                *eq = 0;
            if (!eq)
                parse_error(&p, "expected 'key = value'");
            else if (!cur)
                parse_error(&p, "'%s' outside a [variant] section", trim(l));
            else {
                char *key = trim(l);
                if (!strcmp(key, "piece-description"))
                    hash_skip_line(&p, s, next);
                parse_key(&p, cur, key, trim(eq + 1));
            }
        }
        s = next;
    }
    if (cur)
        section_end(&p, cur, s);
    XXH3_freeState(p.hash);
    if (!n && !p.errors) {
        p.line = 0;
        parse_error(&p, "no [variant] section");
    }
    parse_finish_errors(&p);
    if (p.errors) {
        for (int i = 0; i < n; i++)
            variant_free(out[i]);
        return -1;
    }
    return n;
}

void variant_free(struct variant *v)
{
    if (v)
        free(v->keys);
    free(v);
}
