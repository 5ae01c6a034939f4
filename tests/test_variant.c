/* Variant definitions: atoms, angles, inheritance, errors with line numbers, keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../rules/setup.h"
#include "tests.h"

static const struct leap *find_leap(const struct piece_def *pd, int dq, int dr)
{
    for (int i = 0; i < pd->nleaps; i++)
        if (pd->leaps[i].dq == dq && pd->leaps[i].dr == dr)
            return &pd->leaps[i];
    return NULL;
}

static void assert_leap(const struct piece_def *pd, int dq, int dr, int mode)
{
    const struct leap *l = find_leap(pd, dq, dr);
    ck_assert_msg(l && l->mode == mode, "%s: leap (%d,%d) mode %d, expected %d", pd->name, dq, dr, l ? l->mode : 0,
                  mode);
}

static const struct piece_def *piece_of(const struct variant *v, char letter)
{
    int t = variant_type_of_letter(v, letter);
    ck_assert_int_ge(t, 0);
    return &v->piece[t];
}

START_TEST(test_pawn_atoms)
{
    /* Glinski: straight up the file, capture along the orthogonals at 60 degrees. */
    const struct piece_def *p = piece_of(test_variant("glinski"), 'P');
    ck_assert_int_eq(p->nleaps, 3);
    assert_leap(p, 0, 1, MODE_MOVE);
    assert_leap(p, -1, 1, MODE_CAPTURE);
    assert_leap(p, 1, 0, MODE_CAPTURE);
    /* McCooey: captures along the two forward diagonals D0 and D5. */
    p = piece_of(test_variant("mccooey"), 'P');
    ck_assert_int_eq(p->nleaps, 3);
    assert_leap(p, 0, 1, MODE_MOVE);
    assert_leap(p, -1, 2, MODE_CAPTURE);
    assert_leap(p, 1, 1, MODE_CAPTURE);
    /* Haynie (forward D0): moves along O0 and O1, captures along D5, D0 and D1. */
    p = piece_of(test_variant("haynie"), 'P');
    ck_assert_int_eq(p->nleaps, 5);
    assert_leap(p, 0, 1, MODE_MOVE);
    assert_leap(p, -1, 1, MODE_MOVE);
    assert_leap(p, 1, 1, MODE_CAPTURE);
    assert_leap(p, -1, 2, MODE_CAPTURE);
    assert_leap(p, -2, 1, MODE_CAPTURE);
}
END_TEST

START_TEST(test_full_house_pieces)
{
    const struct variant *v = test_variant("full-house");
    ck_assert_int_eq(v->ntypes, 13);
    const struct piece_def *u = piece_of(v, 'U'), *e = piece_of(v, 'E'), *y = piece_of(v, 'Y');
    ck_assert_uint_eq(u->ride[MODE_BOTH], 0xfff);
    ck_assert_uint_eq(u->slide[MODE_BOTH], 0xfc0);
    ck_assert_int_eq(u->nleaps, 0);
    ck_assert_int_eq(e->nleaps, 18);
    assert_leap(e, 0, 3, MODE_BOTH);
    assert_leap(e, 2, 1, MODE_BOTH);
    ck_assert_int_eq(y->nleaps, 30);
    ck_assert_uint_eq(piece_of(v, 'S')->slide[MODE_BOTH], 0x03f);
    ck_assert_int_eq(piece_of(v, 'T')->nleaps, 12);
    assert_leap(piece_of(v, 'T'), 0, -2, MODE_BOTH);
    ck_assert_int_eq(v->npromo, 11);
    ck_assert_str_eq(v->parent, "glinski");
    ck_assert_int_eq(v->stalemate_num * 4, v->stalemate_den * 3);
}
END_TEST

/* Stalemate draws in De Vasa's game (docs/variants.md#devasa): Ludii's rules score it so, and the
 * published rules amend only Glinski's piece moves, not his 3/4 for stalemate. Glinski keeps 3/4. */
START_TEST(test_stalemate_scores)
{
    const struct variant *d = test_variant("devasa"), *g = test_variant("glinski");
    ck_assert_int_eq(d->stalemate_num * 2, d->stalemate_den);
    ck_assert_int_eq(g->stalemate_num * 4, g->stalemate_den * 3);
}
END_TEST

START_TEST(test_mirrored_double_steps)
{
    const struct variant *v = test_variant("mccooey");
    const struct geometry *g = &v->geo;
    const char *white[] = { "c1", "d2", "e3", "g3", "h2", "i1" }, *black[] = { "c8", "d8", "e8", "g8", "h8", "i8" };
    int n[2] = { 0 };
    for (int c = 0; c < g->ncells; c++)
        for (int p = 0; p < 2; p++)
            n[p] += v->double_cell[p][c] != 0;
    ck_assert_int_eq(n[0], 6);
    ck_assert_int_eq(n[1], 6);
    for (int i = 0; i < 6; i++) {
        ck_assert(v->double_cell[0][geo_parse_cell(g, white[i], NULL)]);
        ck_assert(v->double_cell[1][geo_parse_cell(g, black[i], NULL)]);
    }
    ck_assert(!v->double_cell[1][geo_parse_cell(g, "f8", NULL)]);
}
END_TEST

/* Whether the cell lies on the board's edge: a neighbour is off the board. */
static bool on_edge(const struct geometry *g, int c)
{
    bool edge = false;
    for (int d = 0; d < 6; d++)
        edge |= geo_cell(g, g->q[c] + geo_orth[d].q, g->r[c] + geo_orth[d].r) == CELL_NONE;
    return edge;
}

/* ND Trios castles "with any Rook on the same edge" as the Grandduke and never with a non-edge Rook
 * (seed 003): every Rook of the start that stands on one of the Grandduke's edges, every cell between them
 * on that edge too, has a rule, and no other Rook has one. */
START_TEST(test_nd_trios_edge_rooks_castle)
{
    const struct variant *v = test_variant("nd-trios");
    const struct geometry *g = &v->geo;
    struct setup s;
    char err[256];
    ck_assert(setup_from_fen(&s, v, v->start_fen, err, sizeof err));
    int rook = variant_type_of_letter(v, 'R'), royal = v->castle[0][0].royal, edge_rooks = 0, rooks = 0;
    for (int c = 0; c < g->ncells; c++) {
        if (s.piece[c] != piece_make(0, rook))
            continue;
        rooks++;
        bool along_edge = false;
        for (int d = 0; d < 6; d++) {
            bool edge = on_edge(g, royal);
            for (int at = royal; edge && at != CELL_NONE && at != c;) {
                at = geo_cell(g, g->q[at] + geo_orth[d].q, g->r[at] + geo_orth[d].r);
                edge = at != CELL_NONE && on_edge(g, at);
                along_edge |= edge && at == c;
            }
        }
        bool has_rule = false;
        for (int i = 0; i < v->ncastles; i++)
            has_rule |= v->castle[0][i].rook == c;
        ck_assert_msg(has_rule == along_edge, "Rook %s: on the Grandduke's edge %d, castles %d", g->name[c], along_edge,
                      has_rule);
        edge_rooks += along_edge;
    }
    ck_assert_int_eq(rooks, 6);
    ck_assert_int_eq(edge_rooks, 4);
    ck_assert_int_eq(v->ncastles, 4);
    /* A FEN cannot grant a right to a non-edge Rook. */
    char fen[1024];
    snprintf(fen, sizeof fen, "%.*s w d1,f2 - 0 1", (int)strcspn(v->start_fen, " "), v->start_fen);
    ck_assert(!setup_from_fen(&s, v, fen, err, sizeof err));
    ck_assert_str_eq(err, "bad FEN: no castling rook starts on f2");
}
END_TEST

static const char *parse_error_of(const char *text)
{
    static char err[2048];
    ck_assert_int_lt(registry_add_text(text, "t.ini", true, game_validate_variant, err, sizeof err), 0);
    return err;
}

/* double-step-of: a cell's double step belongs to one pawn type, for the second player by the mirror too;
 * the other pawn type steps once from it. */
START_TEST(test_double_step_of)
{
    const struct variant *v = test_variant("nd-trios");
    const struct geometry *g = &v->geo;
    int broker = variant_type_of_letter(v, 'P'), migrant = variant_type_of_letter(v, 'M');
    const struct { const char *cell; int player, type; } own[] = {
        { "g3", 0, 'P' }, { "h3", 0, 'P' }, { "i3", 0, 'P' }, { "d2", 0, 'M' }, { "e3", 0, 'M' }, { "l3", 0, 'M' },
        { "m2", 0, 'M' }, { "g12", 1, 'P' }, { "h13", 1, 'P' }, { "i12", 1, 'P' }, { "d10", 1, 'M' }, { "e10", 1, 'M' },
        { "l10", 1, 'M' }, { "m10", 1, 'M' },
    };
    int n = 0;
    for (int c = 0; c < g->ncells; c++)
        n += (variant_double_steps(v, 0, broker, c) || variant_double_steps(v, 0, migrant, c)) +
             (variant_double_steps(v, 1, broker, c) || variant_double_steps(v, 1, migrant, c));
    ck_assert_int_eq(n, 14);
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        int c = geo_parse_cell(g, own[i].cell, NULL), t = variant_type_of_letter(v, (char)own[i].type);
        ck_assert_msg(variant_double_steps(v, own[i].player, t, c) == 2, "%s", own[i].cell);
        ck_assert_msg(!variant_double_steps(v, own[i].player, t == broker ? migrant : broker, c), "%s", own[i].cell);
    }
    const char *head = "[z]\nboard = hexagon 8\npiece = king K W royal\npiece = rook R R\n"
                       "piece = pawn P move:W@0 pawn double\npiece = step S move:W@0 pawn\n";
    char text[512];
    snprintf(text, sizeof text, "%sdouble-step-of = R c1\n", head);
    ck_assert_ptr_nonnull(strstr(parse_error_of(text), "t.ini:7: double-step-of needs the letter of a pawn with a "
                                                       "double step"));
    snprintf(text, sizeof text, "%sdouble-step-of = S c1\n", head);
    ck_assert_ptr_nonnull(strstr(parse_error_of(text), "t.ini:7: double-step-of needs the letter"));
    snprintf(text, sizeof text, "%sdouble-step-of = PP c1\n", head);
    ck_assert_ptr_nonnull(strstr(parse_error_of(text), "t.ini:7: double-step-of needs the letter"));
    snprintf(text, sizeof text, "%sdouble-step = c1 d2\ndouble-step-of = P d2\n", head);
    ck_assert_ptr_nonnull(strstr(parse_error_of(text), "t.ini:8: cell d2 is in two lists of double-step cells"));
    snprintf(text, sizeof text, "%sdouble-step-of = P q1\n", head);
    ck_assert_ptr_nonnull(strstr(parse_error_of(text), "t.ini:7: no cell 'q1' on this board"));
}
END_TEST

/* Every key docs/variant-format.md lists is one the reader knows: a bad value draws another error. */
START_TEST(test_documented_keys_known)
{
    FILE *f = fopen("docs/variant-format.md", "r");
    ck_assert_msg(f != NULL, "docs/variant-format.md cannot be opened");
    char line[4096], key[64];
    bool in_keys = false;
    int keys = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3))
            in_keys = !strcmp(line, "## Keys\n");
        if (!in_keys || sscanf(line, "| `%63[^`]` |", key) != 1)
            continue;
        char text[128], err[2048];
        struct variant *v[1];
        snprintf(text, sizeof text, "[doc-key]\n%s = ?\n", key);
        ck_assert_int_lt(variant_parse(text, "k.ini", v, 1, NULL, 0, err, sizeof err), 0);
        ck_assert_msg(!strstr(err, "unknown key"), "%s: %s", key, err);
        keys++;
    }
    fclose(f);
    ck_assert_msg(keys > 0, "no key table found");
}
END_TEST

START_TEST(test_errors_name_lines)
{
    test_variant("glinski");
    ck_assert_ptr_nonnull(strstr(parse_error_of("[x]\nboard = hexagon 6\npiece = king K W F royal\npiece = q Q R Z\n"),
                                 "t.ini:4: unknown movement atom 'Z'"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[x]\nboard = hexagon 6\npiece = p P move:W@30\n"),
                                 "t.ini:3: bad angle"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[glinski]\n"), "already defined"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[y:nowhere]\n"), "t.ini:1: unknown parent"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("board = star\n"), "t.ini:1: 'board' outside"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[Bad Name]\n"), "bad variant name"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nboard = hexagon 12\n"), "t.ini:2: board must be"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nwhat\n"), "t.ini:2: expected 'key = value'"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nstart = 6/6 w - - 0 1\n"), "start position"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nstalemate = 5/4\n"), "t.ini:2: stalemate"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npromotion = K\n"), "promotion piece 'K'"));
    /* Every error is reported, each with its line. */
    const char *two = parse_error_of("[z:glinski]\ncolour = red\nplayers = 5\n");
    ck_assert_ptr_nonnull(strstr(two, "t.ini:2: unknown key 'colour'"));
    ck_assert_ptr_nonnull(strstr(two, "t.ini:3: players must be 2, 3 or 4"));
    ck_assert_str_eq(parse_error_of(""), "t.ini: no [variant] section");
    ck_assert_ptr_nonnull(strstr(parse_error_of("[a--b]\n"), "bad variant name"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[-]\n"), "bad variant name"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = rook2 X W@\n"), "t.ini:2: no angles"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = rook X W\n"), "t.ini:2: two pieces named 'rook'"));
    /* The engine refuses a start position where the side that just moved is in check. */
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nstart = 6/7/8/9/10/Q4k5/10/9/8/7/K5 w - - 0 1\n"),
                                 "just moved"));
    /* A long list of errors ends with a count of those not shown, never a cut line. */
    char many[8192] = "[z:glinski]\n";
    for (int i = 0; i < 300; i++)
        strcat(many, "bad = 1\n");
    static char err[1024];
    ck_assert_int_lt(registry_add_text(many, "t.ini", true, game_validate_variant, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "more errors not shown"));
    ck_assert_ptr_nonnull(strstr(err, "t.ini:2: unknown key 'bad'"));
    char *save;
    for (char *line = strtok_r(err, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t len = strlen(line);
        ck_assert_msg(len > 9 && (!strcmp(line + len - 9, "not shown") || !strcmp(line + len - 5, "'bad'")), "%s",
                      line);
    }
}
END_TEST

/* Curved and hopping atoms, step limits, divergent modes, the Flatstar Point's flags, promotion
 * limits and fusion, as the parser stores them. */
/* The one error line of a text that must be refused; nothing of it is kept. */
static void assert_one_error(const char *text, const char *want)
{
    const char *err = parse_error_of(text);
    ck_assert_msg(!strchr(err, '\n') && strstr(err, want), "got '%s', expected one line with '%s'", err, want);
}

/* promo[] has room for every piece type once: a longer list (a type repeated) once wrote past it. */
/* A variant file that cannot be read: one line naming it and why, before any of it is parsed. */
START_TEST(test_unreadable_files_refused)
{
    char err[512], dir[TEST_DIR_LEN], big[TEST_DIR_LEN + 16];
    ck_assert_int_lt(registry_add_file("tests", true, game_validate_variant, err, sizeof err), 0);
    ck_assert_str_eq(err, "tests: not a regular file");
    ck_assert_int_lt(registry_add_file("/nonexistent/v.ini", true, game_validate_variant, err, sizeof err), 0);
    ck_assert_str_eq(err, "/nonexistent/v.ini: No such file or directory");
    test_dir_make(dir, "variant-big");
    snprintf(big, sizeof big, "%s/big.ini", dir);
    FILE *f = fopen(big, "w");
    ck_assert(f);
    for (int i = 0; i < (1 << 20) / 8 + 1; i++)
        fputs("# ......\n", f);
    ck_assert(!fclose(f));
    ck_assert_int_lt(registry_add_file(big, true, game_validate_variant, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "big.ini: larger than 1048576 bytes") && !strchr(err, '\n'), "%s", err);
    test_dir_remove(dir);
}
END_TEST

START_TEST(test_promotion_list_bounded)
{
    char text[1024], letters[400];
    test_variant("glinski");
    memset(letters, 'Q', 25);
    letters[25] = 0;
    snprintf(text, sizeof text, "[z:glinski]\npromotion = %s\n", letters);
    assert_one_error(text, "t.ini:2: promotion piece 'Q' listed twice");
    for (int i = 0; i < 181; i++)
        letters[i] = "QRBN"[i % 4];
    letters[181] = 0;
    snprintf(text, sizeof text, "[z:glinski]\npromotion = %s\n", letters);
    assert_one_error(text, "t.ini:2: promotion piece 'Q' listed twice");
    assert_one_error("[z:glinski]\npromotion = Q R B N q\n", "t.ini:2: promotion piece 'q' listed twice");
    char err[256];
    ck_assert_int_eq(registry_add_text("[z:glinski]\npromotion = N B R Q\n", "t.ini", true, game_validate_variant, err,
                                       sizeof err), 1);
    /* A type the list or a fusion names may not be redefined royal or pawn afterwards (found by audit for
     * docs/fuzzing.md: a pawn promoted to a pawn, a royal fused away). */
    const char *why = "cannot become royal or a pawn";
    assert_one_error("[z:glinski]\npromotion = Q\npiece = queen Q R B pawn\n",
                     "t.ini:3: piece 'Q' is in the promotion list");
    assert_one_error("[z:mishling-fusion]\npiece = rook R R royal\n", why);
    assert_one_error("[z:glinski]\nfusion = R+B=N\npiece = newking N W F royal\n", why);
    ck_assert_int_eq(registry_add_text("[z:glinski]\npromotion = Q\npiece = queen Q R B\n", "t.ini", true,
                                       game_validate_variant, err, sizeof err), 1);
}
END_TEST

/* Numbers too large for an int are refused, not wrapped into range (4294967302 is 6 modulo 2^32). */
START_TEST(test_huge_numbers_refused)
{
    test_variant("glinski");
    assert_one_error("[z:glinski]\nboard = hexagon 4294967302\n", "t.ini:2: board must be 'hexagon N'");
    assert_one_error("[z:glinski]\nboard = hexagon 6 and more\n", "t.ini:2: board must be 'hexagon N'");
    assert_one_error("[z:glinski]\npromotion-limit = 4294967297\n", "t.ini:2: promotion-limit must be a number");
    assert_one_error("[z:glinski]\nstalemate = 4294967297/4294967298\n", "t.ini:2: stalemate must be a fraction");
    assert_one_error("[z:glinski]\nstalemate = 1/99999999999999999999\n", "t.ini:2: stalemate must be a fraction");
    assert_one_error("[z:glinski]\npiece = wazir X W@4294967296\n", "t.ini:2: bad angle in 'W@4294967296'");
    /* Near INT_MIN, where taking the diagonal's 30 degrees off would overflow. */
    assert_one_error("[z:glinski]\npiece = elf X B@-2147483640\n", "t.ini:2: bad angle in 'B@-2147483640'");
    char err[256];
    ck_assert_int_eq(registry_add_text("[z:glinski]\nboard = hexagon 6\npromotion-limit = 99\nstalemate = 0/1\n"
                                       "piece = wazir X W@-360,360\n", "t.ini", true, game_validate_variant, err,
                                       sizeof err), 1);
}
END_TEST

/* A long origin (a path) once pushed the message past the end of parse_error's buffer. */
START_TEST(test_long_origin)
{
    test_variant("glinski");
    for (int len = 500; len <= 600; len += 10) {
        char origin[700], err[2048];
        memset(origin, '/', (size_t)len);
        origin[len] = 0;
        ck_assert_int_lt(registry_add_text("[z:glinski]\nbad = 1\n", origin, true, game_validate_variant, err,
                                           sizeof err), 0);
        ck_assert_msg(!strchr(err, '\n') && strstr(err, ":2: unknown key 'bad'") && err[0] == '/',
                      "origin of %d characters: got '%s'", len, err);
    }
}
END_TEST

START_TEST(test_new_atoms_and_keys)
{
    const struct variant *fl = test_variant("flatstar");
    const struct piece_def *c = piece_of(fl, 'C'), *l = piece_of(fl, 'L'), *p = piece_of(fl, 'P');
    ck_assert_uint_eq(c->curved[MODE_BOTH], 0xfffu);
    ck_assert_int_eq(c->curved_steps[0], 4);
    ck_assert_int_eq(c->curved_steps[1], 5);
    ck_assert_uint_eq(l->slide[MODE_MOVE], 0xfc0u);
    ck_assert_uint_eq(l->hop, 0xfc0u);
    ck_assert_uint_eq(l->slide[MODE_BOTH] | l->slide[MODE_CAPTURE], 0);
    ck_assert(p->centreward && p->double_step && p->en_passant);
    ck_assert_uint_eq(p->double_dirs, 1u);
    const struct variant *sh = test_variant("shammes");
    ck_assert_uint_eq(piece_of(sh, 'M')->curved[MODE_MOVE], 0x3fu);
    ck_assert_uint_eq(piece_of(sh, 'M')->curved[MODE_CAPTURE], 0xfc0u);
    ck_assert_int_eq(sh->promo_limit, 4);
    const struct variant *fu = test_variant("mishling-fusion");
    int r = variant_type_of_letter(fu, 'R'), u = variant_type_of_letter(fu, 'U'), d = variant_type_of_letter(fu, 'D');
    ck_assert_int_eq(fu->fuse[r][u], d + 1);
    ck_assert_int_eq(fu->fuse[u][r], d + 1);
    ck_assert(variant_is_compound(fu, d) && !variant_is_compound(fu, r));
    ck_assert_int_eq(fu->fuse[r][r], 0);
    const struct variant *mi = test_variant("mishling");
    ck_assert(!variant_is_compound(mi, variant_type_of_letter(mi, 'D')));
    ck_assert_int_eq(fu->promo_limit, 6);

    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = f F cR4 cR5\n"), "t.ini:2: two step limits"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = f F cR6\n"), "t.ini:2: unknown movement atom 'cR6'"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:haynie]\npiece = x X W centreward\n"), "t.ini:2: centreward needs"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X W double@30\n"), "t.ini:2: bad angle"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X start:capture:R\n"),
                                 "t.ini:2: 'start:' applies to leaps only (W F D H N), not 'R'"));
    /* Brusky's pawn: its straight-ahead capture is a leap of its own, kept apart from the other leaps. */
    const struct variant *br = test_variant("brusky");
    const struct piece_def *bp = &br->piece[variant_type_of_letter(br, 'P')];
    int starts = 0;
    for (int i = 0; i < bp->nleaps; i++)
        starts += bp->leaps[i].start && bp->leaps[i].mode == MODE_CAPTURE && bp->leaps[i].dq == -1 && bp->leaps[i].dr == 2;
    ck_assert(starts == 1 && bp->blocked && bp->nleaps == 5);
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npromotion-limit = 0\n"), "t.ini:2: promotion-limit"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+B\n"), "t.ini:2: bad fusion 'R+B'"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+K=Q\n"), "royal pieces and pawns"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+B=Q Q+N=B\n"), "fuses no further"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+B=Q B+R=N\n"), "fuses no further"));
    /* Divergent Fusion: a second pair may form the same compound, which then lists both pairs; a third
     * pair, or a second one sharing a piece with the first, would not say what the compound divides into. */
    const struct variant *sw = test_variant("waitress-fusion-swap");
    int wr = variant_type_of_letter(sw, 'R'), wu = variant_type_of_letter(sw, 'U'), ww = variant_type_of_letter(sw, 'W');
    int wx = variant_type_of_letter(sw, 'X'), wd = variant_type_of_letter(sw, 'D');
    ck_assert_int_eq(sw->fuse[wr][wu], wd + 1);
    ck_assert_int_eq(sw->fuse[wx][ww], wd + 1);
    ck_assert_int_eq(variant_fission_stays(sw, wd, wx), ww);
    ck_assert_int_eq(variant_fission_stays(sw, wd, wu), wr);
    ck_assert_int_eq(sw->promo_limit, 8);
    const char *pairs = "a compound is formed by at most 2 pairs, which share no piece";
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+B=Q R+N=Q\n"), pairs));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:full-house]\nfusion = R+B=Q N+S=Q M+T=Q\n"), pairs));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nfusion = R+B=Q N+Q=K\n"), "royal"));
}
END_TEST

/* The substitutes' atoms (variant-format.md): each kind by its first step's group, the unprefixed
 * crooked atom as both kinds, angles selecting first steps, modes, and the errors. */
START_TEST(test_path_atoms)
{
    const struct variant *cr = test_variant("mishling-crooked");
    const struct piece_def *f = piece_of(cr, 'F'), *i = piece_of(cr, 'I');
    ck_assert_uint_eq(f->path[PATH_LONG][MODE_BOTH], 0x3fu);
    ck_assert_uint_eq(f->path[PATH_SHORT][MODE_BOTH], 0x3fu);
    ck_assert_uint_eq(i->path[PATH_LONG][MODE_BOTH] & i->path[PATH_SHORT][MODE_BOTH], 0xfc0u);
    ck_assert_uint_eq(f->curved[MODE_BOTH] | i->curved[MODE_BOTH], 0);
    const struct variant *lo = test_variant("mishling-long");
    ck_assert_uint_eq(piece_of(lo, 'C')->path[PATH_LONG][MODE_BOTH], 0xfffu);
    ck_assert_uint_eq(piece_of(lo, 'C')->path[PATH_SHORT][MODE_BOTH], 0);
    const struct variant *si = test_variant("mishling-simurgh"), *ja = test_variant("mishling-jackal");
    ck_assert_uint_eq(piece_of(si, 'F')->path[PATH_BENT][MODE_BOTH], 0xfc0u); /* a diagonal first step */
    ck_assert_uint_eq(piece_of(si, 'I')->path[PATH_BENT][MODE_BOTH], 0x3fu);
    ck_assert_uint_eq(piece_of(ja, 'F')->path[PATH_JOINED][MODE_BOTH], 0xfc0u);
    ck_assert_uint_eq(piece_of(ja, 'C')->path[PATH_JOINED][MODE_BOTH], 0xfffu);

    struct variant *v;
    char err[512];
    ck_assert_msg(variant_parse("[z]\nboard = hexagon 6\norientation = glinski\npiece = king K W F royal\n"
                                "piece = x X move:jR@30,-30 capture:gB@0 lzB@90\nstart = 6/7/8/9/10/K9k/10/9/8/7/6 w - - 0 1\n",
                                "t.ini", &v, 1, NULL, 0, err, sizeof err) == 1, "%s", err);
    const struct piece_def *x = piece_of(v, 'X');
    ck_assert_uint_eq(x->path[PATH_JOINED][MODE_MOVE], (1u << DIR_DIAG) | (1u << (DIR_DIAG + 5)));
    ck_assert_uint_eq(x->path[PATH_BENT][MODE_CAPTURE], 1u);
    ck_assert_uint_eq(x->path[PATH_LONG][MODE_BOTH], 1u << (DIR_DIAG + 1));
    variant_free(v);
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X jR@0\n"), "t.ini:2: bad angle"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X gB@30\n"), "t.ini:2: bad angle"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X zQ\n"), "t.ini:2: unknown movement atom 'zQ'"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece = x X start:lzR\n"), "'start:' applies to leaps only"));
}
END_TEST

/* nd-wellisch-trios-4p (variants.md): the Trios armies' double step belongs to the Brokers behind their kind
 * only, given per army with double-step-of (Red's cells, Green's turned half a turn); the ND armies keep
 * nd-wellisch's Points of the second row; each army promotes to its own pieces. */
START_TEST(test_trios_armies)
{
    const struct variant *v = test_variant("nd-wellisch-trios-4p");
    const struct geometry *g = &v->geo;
    int broker = variant_army_type(v, 1, 'P'), migrant = variant_army_type(v, 1, 'M');
    ck_assert_str_eq(v->piece[broker].name, "broker");
    ck_assert_str_eq(v->piece[migrant].name, "migrant");
    ck_assert_str_eq(v->piece[variant_army_type(v, 1, 'N')].name, "knight");
    ck_assert_int_eq(variant_army_type(v, 1, 'S'), -1);
    ck_assert_int_eq(v->double_kind[1][geo_cell(g, 5, -1)], broker + 1);   /* n7 */
    ck_assert_int_eq(v->double_kind[1][geo_cell(g, 4, 1)], broker + 1);    /* m9 */
    ck_assert_int_eq(v->double_kind[3][geo_cell(g, -5, 1)], broker + 1);   /* c4 */
    ck_assert_int_eq(v->double_kind[3][geo_cell(g, -4, -1)], broker + 1);  /* d3 */
    ck_assert_int_eq(v->double_cell[1][geo_cell(g, 3, 1)], 0);             /* l9, the front Broker */
    ck_assert_int_eq(v->double_cell[1][geo_cell(g, 7, -3)], 0);            /* p5, a Migrant */
    ck_assert_int_eq(v->double_cell[0][geo_cell(g, -1, -6)], 2);           /* g1, White's Point */
    int promos[2] = { 0 };
    for (int i = 0; i < v->npromo; i++)
        promos[v->piece[v->promo[i]].army]++;
    ck_assert_int_eq(promos[0], 3);
    ck_assert_int_eq(promos[1], 3);
}
END_TEST

/* Keys come from names, so listing the same pieces in another order changes no key. */
/* Different armies (nd-wellisch-4p): each army its pieces, letters, royal, promotion list and start
 * cells, written for its first player in its own orientation and turned by the seats. */
START_TEST(test_different_armies)
{
    const struct variant *v = test_variant("nd-wellisch-4p");
    ck_assert_int_eq(v->nplayers, 4);
    ck_assert_int_eq(v->narmies, 2);
    ck_assert_int_eq(v->army[0], 0);
    ck_assert_int_eq(v->army[1], 1);
    ck_assert_int_eq(v->army[2], 0);
    ck_assert_int_eq(v->army[3], 1);
    ck_assert_int_eq(v->rotation[1], 2);
    ck_assert_int_eq(v->rotation[3], 5);
    /* One letter, two pieces: White's B is the Vicbaba, Red's the Bishop. */
    int vicbaba = variant_army_type(v, 0, 'B'), bishop = variant_army_type(v, 1, 'B');
    ck_assert_str_eq(v->piece[vicbaba].name, "vicbaba");
    ck_assert_str_eq(v->piece[bishop].name, "bishop");
    ck_assert_int_eq(variant_army_type(v, 0, 'N'), -1);
    ck_assert_str_eq(v->piece[variant_royal_type(v, 2)].name, "general");
    ck_assert_str_eq(v->piece[variant_royal_type(v, 3)].name, "king");
    /* McCooey's pawn in Glinski orientation: forward O0, captures on D0 and D5. */
    const struct piece_def *p = &v->piece[variant_army_type(v, 1, 'P')];
    assert_leap(p, 0, 1, MODE_MOVE);
    assert_leap(p, -1, 2, MODE_CAPTURE);
    assert_leap(p, 1, 1, MODE_CAPTURE);
    /* Red's double-step cells as written; Green's are them turned half a turn (300 - 120 degrees). */
    const struct geometry *g = &v->geo;
    ck_assert_int_eq(v->double_cell[1][geo_cell(g, 7, -3)], 2);   /* p5 */
    ck_assert_int_eq(v->double_cell[3][geo_cell(g, -7, 3)], 2);   /* a4 */
    ck_assert_int_eq(v->double_cell[3][geo_cell(g, -4, 0)], 0);   /* d4, the centre row's pawn */
    ck_assert_int_eq(v->double_cell[2][geo_cell(g, -7, 7)], 0);
    int promos[2] = { 0 };
    for (int i = 0; i < v->npromo; i++)
        promos[v->piece[v->promo[i]].army]++;
    ck_assert_int_eq(promos[0], 3);
    ck_assert_int_eq(promos[1], 4);
    /* Seats and armies refused in one line each. */
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch]\nplayers = 4\n"), "four players need their seats"));
    /* Fuzz finding: a castling child of four players without seats reached the castling check's turns. */
    ck_assert_str_eq(parse_error_of("[z:nd-mccooey]\nplayers = 4\n"),
                     "t.ini:2: variant 'z': four players need their seats (seats = 0 120 180 300)");
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\nseats = 0 180\n"), "t.ini:2: seats are set for four"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch]\nplayers = 4\nseats = 0 120 180\n"),
                                 "t.ini:3: seats must be one angle per player"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch]\nplayers = 4\nseats = 60 120 180 300\n"),
                                 "t.ini:3: seats must be"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch-4p]\narmy = w\n"), "t.ini:2: army needs colour letters"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch-4p]\narmy = r b\n"), "t.ini:2: army 'r b': its players"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch-4p]\narmy = r g\nplayers = 3\n"),
                                 "t.ini:3: players must come before the armies"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch-4p]\narmy = r g\npiece = rook2 R R\n"
                                                "orientation = wellisch\n"), "t.ini:4: orientation must come before"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:nd-wellisch-4p]\narmy = b\npiece = king K W royal\n"
                                                "piece = pawn P W@30 pawn\n"), "has pawns but no promotion list (army of b)"));
    /* A child returns to an army by naming its players: its Knight replaced, White's pieces untouched. */
    char err[512];
    ck_assert_int_eq(registry_add_text("[four-child:nd-wellisch-4p]\narmy = r g\npiece = nightrider N NN\n", "c.ini",
                                       false, game_validate_variant, err, sizeof err), 1);
    const struct variant *c = test_variant("four-child");
    ck_assert_int_eq(c->narmies, 2);
    ck_assert_str_eq(c->piece[variant_army_type(c, 1, 'N')].name, "nightrider");
    ck_assert_str_eq(c->piece[variant_army_type(c, 0, 'B')].name, "vicbaba");
}
END_TEST

START_TEST(test_keys_survive_reordering)
{
    const char *text = "[ordered-a]\nboard = hexagon 6\npiece = king K W F royal\npiece = rook R R\n"
                       "piece = knight N N\nstart = 6/7/8/9/10/R1K8/10/9/8/7/5k w - - 0 1\n"
                       "[ordered-b]\nboard = hexagon 6\npiece = knight N N\npiece = rook R R\n"
                       "piece = king K W F royal\nstart = 6/7/8/9/10/R1K8/10/9/8/7/5k w - - 0 1\n";
    char err[512];
    test_variant("glinski");
    ck_assert_msg(registry_add_text(text, "order.ini", false, game_validate_variant, err, sizeof err) == 2, "%s", err);
    struct game a, b;
    test_game(&a, "ordered-a", NULL, false);
    test_game(&b, "ordered-b", NULL, false);
    ck_assert_uint_eq(a.ops->position_key(a.pos), b.ops->position_key(b.pos));
    ck_assert_uint_ne(a.v->fingerprint, b.v->fingerprint);
    const struct variant *g = test_variant("glinski"), *m = test_variant("mccooey");
    ck_assert_uint_ne(g->fingerprint, m->fingerprint);
    ck_assert_uint_ne(g->key_piece[0][0][0], g->key_piece[1][0][0]);
    ck_assert_uint_eq(g->key_side[0], 0);
    game_free(&a);
    game_free(&b);
}
END_TEST

START_TEST(test_inheritance_replaces_pieces)
{
    char err[512];
    test_variant("glinski");
    const char *text = "[glinski-wazir-pawns:glinski]\npiece = pawn P W pawn\n";
    ck_assert_int_eq(registry_add_text(text, "w.ini", false, game_validate_variant, err, sizeof err), 1);
    const struct variant *v = test_variant("glinski-wazir-pawns");
    ck_assert_int_eq(v->ntypes, 6);
    ck_assert_int_eq(piece_of(v, 'P')->nleaps, 6);
    ck_assert(!piece_of(v, 'P')->double_step);
    ck_assert_str_eq(v->start_fen, test_variant("glinski")->start_fen);
}
END_TEST

/* A castling rule's four cells as names: "royal rook royal-to rook-to". */
static void assert_castle(const struct variant *v, int player, int rule, const char *want)
{
    const struct castle_rule *r = &v->castle[player][rule];
    const char (*name)[CELL_NAME_LEN] = v->geo.name;
    char have[32];
    snprintf(have, sizeof have, "%s %s %s %s", name[r->royal], name[r->rook], name[r->royal_to], name[r->rook_to]);
    ck_assert_msg(!strcmp(have, want), "%s player %d rule %d: %s, expected %s", v->name, player, rule, have, want);
}

/* The first player's castling rules as written; the others' mapped like double-step cells (two
 * players: kept on their file, Wellisch: (q + r, -r); three: turned 120 and 240 degrees); a new board
 * or `castling = -` drops them. */
START_TEST(test_castling_rules)
{
    const char *text = "[c2]\nboard = hexagon 8\npiece = grandduke K W F royal\npiece = rook R R\n"
                       "castling = h1 e1 f1 g1, h1 l1 k1 i1\nstart = -\n"
                       "[c3:c2]\nplayers = 3\n"
                       "[cw]\nboard = hexagon 8\norientation = wellisch\npiece = grandduke K W F royal\n"
                       "castling = h1 e1 f1 g1\nstart = -\n"
                       "[c9:c2]\nboard = hexagon 9\n"
                       "[cn:c2]\ncastling = -\n";
    struct variant *v[8];
    char err[1024];
    int n = variant_parse(text, "c.ini", v, 8, NULL, 0, err, sizeof err);
    ck_assert_msg(n == 5, "%s", err);
    ck_assert_int_eq(v[0]->ncastles, 2);
    assert_castle(v[0], 0, 0, "h1 e1 f1 g1");
    assert_castle(v[0], 0, 1, "h1 l1 k1 i1");
    assert_castle(v[0], 1, 0, "h15 e12 f13 g14");
    assert_castle(v[0], 1, 1, "h15 l12 k13 i14");
    assert_castle(v[1], 1, 0, "p8 p5 p6 p7");
    assert_castle(v[1], 2, 0, "a8 d11 c10 b9");
    assert_castle(v[2], 1, 0, "a8 a5 a6 a7");
    ck_assert_int_eq(v[3]->ncastles, 0);
    ck_assert_int_eq(v[4]->ncastles, 0);
    for (int i = 0; i < n; i++)
        variant_free(v[i]);

    /* Errors name their line; the royal's target may not be one of its ordinary moves (line 6: the
     * end of the section). */
    static const struct {
        const char *rules, *error;
    } bad[] = {
        { "h1 e1 f1", "t.ini:5: castling rule 'h1 e1 f1' needs four cells" },
        { "h1 e1 f1 g1 d1", "t.ini:5: castling rule 'h1 e1 f1 g1 d1' needs four cells" },
        { "h1 e1 f1 z9", "t.ini:5: no cell 'z9' on this board" },
        { "h1 e2 f1 g1", "t.ini:5: castling rule 'h1 e2 f1 g1': the royal and the rook must stand on one orthogonal" },
        { "h1 e1 g1 f1", "t.ini:5: castling rule 'h1 e1 g1 f1': the royal and the rook must" },
        { "h1 e1 d1 g1", "t.ini:5: castling rule 'h1 e1 d1 g1': the royal and the rook must" },
        { "h1 h1 h1 h1", "t.ini:5: castling rule 'h1 h1 h1 h1': the royal and the rook must" },
        { "h1 e1 f1 g1, i1 m1 l1 k1", "t.ini:5: castling rule 'i1 m1 l1 k1': every rule starts from the same royal" },
        { "h1 e1 f1 g1, h1 e1 f1 h1", "t.ini:5: castling rule 'h1 e1 f1 h1': a rook's rules need different targets" },
        { "h1 e1 f1 g1, h1 l1 k1 i1, h1 d1 e1 g1, h1 m1 l1 i1, h1 c1 d1 g1", "t.ini:5: more than 4 castling rules" },
        { "h1 e1 g1 h1", "t.ini:6: variant 'z': castling h1g1 is also an ordinary move of the royal piece" },
    };
    char def[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(def, sizeof def, "[z]\nboard = hexagon 8\npiece = grandduke K W F royal\npiece = rook R R\n"
                 "castling = %s\nstart = 8/9/10/11/R10r/13/14/K13k/14/13/R10r/11/10/9/8 w e1,e12 - 0 1\n",
                 bad[i].rules);
        const char *have = parse_error_of(def);
        ck_assert_msg(strstr(have, bad[i].error), "%s: got '%s', expected '%s'", bad[i].rules, have, bad[i].error);
    }
    /* A royal that slides (here a Rook's move) or steps twice reaches more cells; the board goes first. */
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nboard = hexagon 8\npiece = grandduke K R royal\n"
                                                "castling = h1 e1 f1 g1\nstart = -\n"),
                                 "t.ini:5: variant 'z': castling h1f1 is also an ordinary move"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nboard = hexagon 8\npiece = grandduke K W royal double\n"
                                                "double-step = h1\ncastling = h1 e1 f1 g1\nstart = -\n"),
                                 "t.ini:6: variant 'z': castling h1f1 is also an ordinary move"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\npiece = grandduke K W F royal\ncastling = h1 e1 f1 g1\n"),
                                 "t.ini:3: no cell 'h1' on this board"));
    /* Three steps from a triple-step cell reach farther: the royal's double may not land on its target. */
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nboard = hexagon 8\npiece = grandduke K W royal double\n"
                                                "triple-step = h1\ncastling = h1 m1 l1 k1\nstart = -\n"),
                                 "t.ini:6: variant 'z': castling h1l1 is also an ordinary move"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z]\nboard = hexagon 8\ndouble-step = h1 g1\ntriple-step = e1 g1\n"),
                                 "t.ini:4: cell g1 is both a double-step and a triple-step cell"));
    /* The start position must grant every right, and may grant only rights whose pieces are home. */
    const char *start = "[z]\nboard = hexagon 8\npiece = grandduke K W F royal\npiece = rook R R\n"
                        "castling = h1 e1 f1 g1, h1 l1 k1 i1\nstart = 8/9/10/11/R10r/13/14/K13k/14/13/R10r/11/10/9/8 ";
    snprintf(def, sizeof def, "%sw e1,e12,l1 - 0 1\n", start);
    ck_assert_ptr_nonnull(strstr(parse_error_of(def), "variant 'z': start position: the castling field must list "
                                                      "every castling rook (l12 is missing)"));
    snprintf(def, sizeof def, "%sw e1,e12,l1,l12,f1 - 0 1\n", start);
    ck_assert_ptr_nonnull(strstr(parse_error_of(def), "start position: bad FEN: no castling rook starts on f1"));
    snprintf(def, sizeof def, "%sw e1,e12,l1,l12 - 0 1\n", start);
    ck_assert_int_eq(registry_add_text(def, "t.ini", true, game_validate_variant, err, sizeof err), 1);
}
END_TEST

extern const char variants_builtin_ini[];

/* piece-description: the army's piece of the letter gets the text, a `piece` line redefining it clears
 * it, and its line is left out of the fingerprint, so nets and books keep their variant. */
START_TEST(test_piece_descriptions)
{
    const char *plain = "[described]\nboard = hexagon 6\npiece = king K W F royal\npiece = rook R R\n"
                        "start = 6/7/8/9/10/R1K8/10/9/8/7/5k w - - 0 1\n"
                        "[described-child:described]\npiece = rook R R W\n";
    const char *described = "[described]\nboard = hexagon 6\npiece = king K W F royal\n"
                            "piece-description = K Steps one cell.\npiece = rook R R\n"
                            "piece-description = r   Slides.  \nstart = 6/7/8/9/10/R1K8/10/9/8/7/5k w - - 0 1\n"
                            "[described-child:described]\npiece = rook R R W\n";
    struct variant *a[2], *b[2];
    char err[512];
    ck_assert_msg(variant_parse(plain, "d.ini", a, 2, NULL, 0, err, sizeof err) == 2, "%s", err);
    ck_assert_msg(variant_parse(described, "d.ini", b, 2, NULL, 0, err, sizeof err) == 2, "%s", err);
    ck_assert_str_eq(b[0]->piece[variant_type_of_letter(b[0], 'K')].description, "Steps one cell.");
    ck_assert_str_eq(b[0]->piece[variant_type_of_letter(b[0], 'R')].description, "Slides.");
    ck_assert_str_eq(b[1]->piece[variant_type_of_letter(b[1], 'K')].description, "Steps one cell.");
    ck_assert_str_eq(b[1]->piece[variant_type_of_letter(b[1], 'R')].description, "");
    for (int i = 0; i < 2; i++) {
        ck_assert_uint_eq(a[i]->fingerprint, b[i]->fingerprint);
        variant_free(a[i]);
        variant_free(b[i]);
    }
    test_variant("glinski"); /* the registry, for the parent of the sections below */
    const char *need = "piece-description needs the letter of a piece of the army, then its description";
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece-description = Z Flies.\n"), need));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece-description = K\n"), "t.ini:2: piece-description"));
    ck_assert_ptr_nonnull(strstr(parse_error_of("[z:glinski]\npiece-description = KQ Steps.\n"), need));
    char def[512];
    snprintf(def, sizeof def, "[z:glinski]\npiece-description = K %0*d\n", PIECE_DESCRIPTION_LEN, 0);
    ck_assert_ptr_nonnull(strstr(parse_error_of(def), "t.ini:2: piece description of 'K' longer than 199 characters"));
    /* Every built-in piece is described, and the built-ins keep the fingerprints of their text without
     * the descriptions. */
    char *bare = malloc(strlen(variants_builtin_ini) + 1), *out = bare;
    for (const char *line = variants_builtin_ini; *line;) {
        size_t len = strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');
        if (strncmp(line, "piece-description", 17)) {
            memcpy(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = 0;
    struct variant *v[MAX_VARIANTS];
    int n = variant_parse(bare, "variants.ini", v, MAX_VARIANTS, NULL, 0, err, sizeof err);
    ck_assert_msg(n > 30, "%s", err);
    for (int i = 0; i < n; i++) {
        const struct variant *known = test_variant(v[i]->name);
        ck_assert_uint_eq(known->fingerprint, v[i]->fingerprint);
        for (int t = 0; t < known->ntypes; t++)
            ck_assert_msg(known->piece[t].description[0], "%s: %s has no description", known->name,
                          known->piece[t].name);
        variant_free(v[i]);
    }
    free(bare);
}
END_TEST

/* The built-in variants skip the validator at start-up (rules/registry.h): each must pass it here,
 * and build at both cell-set widths. */
START_TEST(test_builtin_variants_valid)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
    for (int i = 0; i < registry_count(); i++) {
        struct game g = { 0 };
        ck_assert_msg(game_validate_variant(registry_get(i), err, sizeof err), "%s: %s", registry_get(i)->name, err);
        ck_assert_msg(game_init(&g, registry_get(i), true, err, sizeof err), "%s (wide): %s", registry_get(i)->name,
                      err);
        game_free(&g);
    }
}
END_TEST

static bool refuse_all(const struct variant *v, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s is not wanted here", v->name);
    return false;
}

/* The validator is the caller's, not the process's: one call refuses what the next accepts. */
START_TEST(test_validator_per_call)
{
    static const char def[] = "[z:glinski]\npromotion = Q\n";
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
    ck_assert_int_lt(registry_add_text(def, "t.ini", true, refuse_all, err, sizeof err), 0);
    ck_assert_str_eq(err, "t.ini: variant 'z': start position: z is not wanted here");
    ck_assert_int_eq(registry_add_text(def, "t.ini", true, game_validate_variant, err, sizeof err), 1);
    ck_assert_int_eq(registry_add_text(def, "t.ini", true, NULL, err, sizeof err), 1);
}
END_TEST

Suite *suite_variant(void)
{
    Suite *s = suite_create("variant");
    TCase *tc = tcase_create("definitions");
    tcase_add_test(tc, test_builtin_variants_valid);
    tcase_add_test(tc, test_validator_per_call);
    tcase_add_test(tc, test_pawn_atoms);
    tcase_add_test(tc, test_full_house_pieces);
    tcase_add_test(tc, test_stalemate_scores);
    tcase_add_test(tc, test_mirrored_double_steps);
    tcase_add_test(tc, test_double_step_of);
    tcase_add_test(tc, test_nd_trios_edge_rooks_castle);
    tcase_add_test(tc, test_errors_name_lines);
    tcase_add_test(tc, test_documented_keys_known);
    tcase_add_test(tc, test_piece_descriptions);
    tcase_add_test(tc, test_keys_survive_reordering);
    tcase_add_test(tc, test_different_armies);
    tcase_add_test(tc, test_trios_armies);
    tcase_add_test(tc, test_inheritance_replaces_pieces);
    tcase_add_test(tc, test_new_atoms_and_keys);
    tcase_add_test(tc, test_path_atoms);
    tcase_add_test(tc, test_castling_rules);
    tcase_add_test(tc, test_promotion_list_bounded);
    tcase_add_test(tc, test_unreadable_files_refused);
    tcase_add_test(tc, test_huge_numbers_refused);
    tcase_add_test(tc, test_long_origin);
    suite_add_tcase(s, tc);
    return s;
}
