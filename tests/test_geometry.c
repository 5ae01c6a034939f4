/* Geometry and cell names against docs/geometry.md. */
#include <stdlib.h>
#include <string.h>

#include "../rules/geometry.h"
#include "tests.h"

static int cell_at(const struct geometry *g, const char *name)
{
    int len = 0, c = geo_parse_cell(g, name, &len);
    ck_assert_msg(c != CELL_NONE && name[len] == 0, "no cell %s", name);
    return c;
}

static void assert_coords(const struct geometry *g, const char *name, int q, int r)
{
    int c = cell_at(g, name);
    ck_assert_msg(g->q[c] == q && g->r[c] == r, "%s is (%d,%d), expected (%d,%d)", name, g->q[c], g->r[c], q, r);
    ck_assert_str_eq(g->name[geo_cell(g, q, r)], name);
}

START_TEST(test_board_sizes)
{
    struct geometry g;
    const int sides[] = { 6, 7, 8, 9 }, cells[] = { 91, 127, 169, 217 };
    for (int i = 0; i < 4; i++) {
        ck_assert(geo_init(&g, SHAPE_HEXAGON, sides[i]));
        ck_assert_int_eq(g.ncells, cells[i]);
        ck_assert_int_eq(g.nfiles, 2 * sides[i] - 1);
    }
    ck_assert(geo_init(&g, SHAPE_STAR, 0));
    ck_assert_int_eq(g.ncells, 73);
    ck_assert_int_eq(g.nfiles, 13);
    ck_assert(!geo_init(&g, SHAPE_HEXAGON, 10));
    ck_assert(!geo_init(&g, SHAPE_HEXAGON, 1));
}
END_TEST

START_TEST(test_glinski_names)
{
    struct geometry g;
    geo_init(&g, SHAPE_HEXAGON, 6);
    assert_coords(&g, "f1", 0, -5);
    assert_coords(&g, "f6", 0, 0);
    assert_coords(&g, "a1", -5, 0);
    assert_coords(&g, "a6", -5, 5);
    assert_coords(&g, "l1", 5, -5);
    assert_coords(&g, "d5", -2, 1);
    assert_coords(&g, "f11", 0, 5);
    const int lengths[] = { 6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6 };
    for (int f = 0; f < 11; f++)
        ck_assert_int_eq(g.file_len[f], lengths[f]);
    /* From d5 the diagonals D0 and D5 reach c6 and e7, the McCooey pawn's captures. */
    int d5 = cell_at(&g, "d5");
    ck_assert_str_eq(g.name[geo_cell(&g, g.q[d5] + geo_diag[0].q, g.r[d5] + geo_diag[0].r)], "c6");
    ck_assert_str_eq(g.name[geo_cell(&g, g.q[d5] + geo_diag[5].q, g.r[d5] + geo_diag[5].r)], "e7");
    ck_assert_int_eq(geo_parse_cell(&g, "j1", NULL), CELL_NONE);
    ck_assert_int_eq(geo_parse_cell(&g, "a7", NULL), CELL_NONE);
    ck_assert_int_eq(geo_parse_cell(&g, "m1", NULL), CELL_NONE);
    ck_assert_int_eq(geo_parse_cell(&g, "f0", NULL), CELL_NONE);
    ck_assert_int_eq(geo_parse_cell(&g, "", NULL), CELL_NONE);
}
END_TEST

START_TEST(test_names_round_trip)
{
    struct geometry g;
    for (int size = 2; size <= 10; size++) {
        bool star = size == 10;
        ck_assert(geo_init(&g, star ? SHAPE_STAR : SHAPE_HEXAGON, star ? 0 : size));
        for (int c = 0; c < g.ncells; c++) {
            int len = 0;
            ck_assert_int_eq(geo_parse_cell(&g, g.name[c], &len), c);
            ck_assert_int_eq(len, (int)strlen(g.name[c]));
            ck_assert_int_eq(geo_cell(&g, g.q[c], g.r[c]), c);
            /* Glinski's ranks count up each column from 1. */
            ck_assert_int_eq(c - g.file_first[g.q[c] - g.qmin] + 1, atoi(g.name[c] + 1));
        }
    }
}
END_TEST

START_TEST(test_star_and_large_boards)
{
    struct geometry g;
    geo_init(&g, SHAPE_STAR, 0);
    ck_assert_int_eq(g.file_len[6], 7);  /* the central file g: g1..g7 */
    assert_coords(&g, "g1", 0, -3);
    assert_coords(&g, "g7", 0, 3);
    ck_assert_int_eq(g.name[g.ncells - 1][0], 'n');
    geo_init(&g, SHAPE_HEXAGON, 9);
    ck_assert_str_eq(g.name[g.ncells - 1], "r9");
    assert_coords(&g, "i17", 0, 8);
    geo_init(&g, SHAPE_HEXAGON, 8);
    ck_assert_int_eq(g.file_len[7], 15);
}
END_TEST

static struct vec step_between(const struct geometry *g, const char *from, const char *to)
{
    int a = geo_parse_cell(g, from, NULL), b = geo_parse_cell(g, to, NULL);
    ck_assert(a != CELL_NONE && b != CELL_NONE);
    return (struct vec){ g->q[b] - g->q[a], g->r[b] - g->r[a] };
}

static void assert_half_turn(const struct geometry *g, const char *a, const char *b)
{
    int c = geo_parse_cell(g, a, NULL), d = geo_parse_cell(g, b, NULL);
    ck_assert_int_eq(g->twice_centre.q - g->q[c], g->q[d]);
    ck_assert_int_eq(g->twice_centre.r - g->r[c], g->r[d]);
    ck_assert_int_eq(geo_centre_distance(g, c), geo_centre_distance(g, d));
}

/* Shafran's 70 cells (files vertical, ranks falling to the right) and de Vasa's 81-cell rhombus
 * (rows horizontal, files leaning left), laid out from their files. */
START_TEST(test_boards_given_by_files)
{
    static const struct board_file shafran[] = { { 'a', 1, 6 }, { 'b', 1, 7 }, { 'c', 1, 8 }, { 'd', 1, 9 },
                                                 { 'e', 1, 10 }, { 'f', 2, 10 }, { 'g', 3, 10 }, { 'h', 4, 10 },
                                                 { 'i', 5, 10 } };
    struct geometry g;
    ck_assert(geo_init_files(&g, geo_orth[4], geo_orth[0], shafran, 9));
    ck_assert_int_eq(g.ncells, 70);
    ck_assert_int_eq(g.nfiles, 9);
    ck_assert_int_eq(g.file_len[5], 9);
    for (int c = 0; c < g.ncells; c++) {
        int len = 0;
        ck_assert_int_eq(geo_parse_cell(&g, g.name[c], &len), c);
        ck_assert_int_eq(len, (int)strlen(g.name[c]));
    }
    struct vec down_right = step_between(&g, "a1", "b1"), up = step_between(&g, "e1", "e2");
    ck_assert(down_right.q == 1 && down_right.r == -1 && up.q == 0 && up.r == 1);
    ck_assert_int_eq(step_between(&g, "e1", "f2").q, 1);
    ck_assert_int_eq(step_between(&g, "e1", "f2").r, 0);
    assert_half_turn(&g, "a1", "i10");
    assert_half_turn(&g, "e1", "e10");
    assert_half_turn(&g, "i5", "a6");
    /* The centre lies between e5 and e6 (the evaluation's rim distances count from it). */
    ck_assert_int_eq(geo_centre_distance(&g, geo_parse_cell(&g, "e5", NULL)), 0);
    ck_assert_int_eq(geo_centre_distance(&g, geo_parse_cell(&g, "e6", NULL)), 0);
    ck_assert_int_eq(geo_centre_distance(&g, geo_parse_cell(&g, "a1", NULL)), 4);
    ck_assert_int_eq(geo_parse_cell(&g, "f1", NULL), CELL_NONE);
    ck_assert_int_eq(geo_parse_cell(&g, "j5", NULL), CELL_NONE);

    struct board_file devasa[9];
    for (int f = 0; f < 9; f++)
        devasa[f] = (struct board_file){ (char)('a' + f), 1, 9 };
    ck_assert(geo_init_files(&g, geo_orth[5], geo_orth[1], devasa, 9));
    ck_assert_int_eq(g.ncells, 81);
    ck_assert_int_eq(g.nfiles, 17);
    struct vec right = step_between(&g, "a1", "b1"), up_left = step_between(&g, "a1", "a2");
    ck_assert(right.q == 1 && right.r == 0 && up_left.q == -1 && up_left.r == 1);
    assert_half_turn(&g, "a1", "i9");
    assert_half_turn(&g, "f1", "d9");

    /* Refused: a letter twice, two files over one cell, parallel steps, too many cells. */
    struct board_file twice[] = { { 'a', 1, 3 }, { 'a', 4, 5 } };
    ck_assert(!geo_init_files(&g, geo_orth[5], geo_orth[1], twice, 2));
    struct board_file wide[17];
    for (int f = 0; f < 17; f++)
        wide[f] = (struct board_file){ (char)('a' + f), 1, 17 };
    ck_assert(!geo_init_files(&g, geo_orth[0], geo_orth[3], wide, 2));
    ck_assert(!geo_init_files(&g, geo_orth[5], geo_orth[1], wide, 17));
    ck_assert_int_eq(g.ncells, 81);  /* untouched */
}
END_TEST

START_TEST(test_directions)
{
    for (int i = 0; i < 6; i++) {
        struct vec o = geo_orth[i], next = geo_orth[(i + 1) % 6];
        struct vec turned = geo_rotate(o, 1);
        ck_assert(turned.q == next.q && turned.r == next.r);
        ck_assert_int_eq(geo_diag[i].q, o.q + next.q);
        ck_assert_int_eq(geo_diag[i].r, o.r + next.r);
        ck_assert_int_eq(geo_distance((struct vec){ 0, 0 }, o), 1);
        ck_assert_int_eq(geo_distance((struct vec){ 0, 0 }, geo_diag[i]), 2);
    }
    for (int i = 0; i < 12; i++) {
        struct vec t = geo_rotate(geo_root7[i], 1), want = geo_root7[(i + 2) % 12];
        ck_assert(t.q == want.q && t.r == want.r);
        ck_assert_int_eq(geo_root7[i].q * geo_root7[i].q + geo_root7[i].q * geo_root7[i].r
                             + geo_root7[i].r * geo_root7[i].r, 7);
    }
}
END_TEST

START_TEST(test_colours)
{
    struct geometry g;
    geo_init(&g, SHAPE_HEXAGON, 6);
    int count[3] = { 0 };
    for (int c = 0; c < g.ncells; c++) {
        count[geo_colour_of(&g, c)]++;
        for (int d = 0; d < 6; d++) {
            int o = geo_cell(&g, g.q[c] + geo_orth[d].q, g.r[c] + geo_orth[d].r);
            int f = geo_cell(&g, g.q[c] + geo_diag[d].q, g.r[c] + geo_diag[d].r);
            if (o != CELL_NONE)
                ck_assert_int_ne(geo_colour_of(&g, o), geo_colour_of(&g, c));
            if (f != CELL_NONE)
                ck_assert_int_eq(geo_colour_of(&g, f), geo_colour_of(&g, c));
        }
    }
    ck_assert_int_eq(count[0] + count[1] + count[2], 91);
    ck_assert_int_eq(count[0], 31);  /* the centre's colour has one cell more */
}
END_TEST

/* A curved rider (docs/variant-format.md) turns 60 degrees the same way at every step; five steps end
 * next to the start, where a single step also lands. */
START_TEST(test_curved_paths)
{
    struct geometry g;
    int cells[CURVED_MAX_STEPS];
    geo_init(&g, SHAPE_HEXAGON, 6);
    int f6 = cell_at(&g, "f6");
    const char *ccw[] = { "f7", "e7", "d6", "d5", "e5" }, *cw[] = { "f7", "g7", "h6", "h5", "g5" };
    ck_assert_int_eq(geo_curved_path(&g, f6, 0, 1, cells), 5);
    for (int k = 0; k < 5; k++)
        ck_assert_str_eq(g.name[cells[k]], ccw[k]);
    ck_assert_int_eq(geo_curved_path(&g, f6, 0, -1, cells), 5);
    for (int k = 0; k < 5; k++)
        ck_assert_str_eq(g.name[cells[k]], cw[k]);
    for (int d = 0; d < NUM_STRAIGHT; d++) {
        for (int sense = -1; sense <= 1; sense += 2) {
            int n = geo_curved_path(&g, f6, d, sense, cells);
            ck_assert_int_eq(n, 5);
            struct vec end = { g.q[cells[4]], g.r[cells[4]] };
            ck_assert_int_eq(geo_distance(end, (struct vec){ 0, 0 }), d < DIR_DIAG ? 1 : 2);
            for (int k = 0; d >= DIR_DIAG && k < n; k++)
                ck_assert_int_eq(geo_colour_of(&g, cells[k]), geo_colour_of(&g, f6));
        }
    }
    /* Paths end at the edge. */
    int a1 = cell_at(&g, "a1");
    ck_assert_int_eq(geo_curved_path(&g, a1, 2, 1, cells), 0);
    ck_assert_int_eq(geo_curved_path(&g, cell_at(&g, "f11"), 0, 1, cells), 0);
    ck_assert_int_eq(geo_curved_path(&g, cell_at(&g, "f10"), 0, 1, cells), 1);
    ck_assert_str_eq(g.name[cells[0]], "f11");
}
END_TEST

Suite *suite_geometry(void)
{
    Suite *s = suite_create("geometry");
    TCase *tc = tcase_create("cells");
    tcase_add_test(tc, test_board_sizes);
    tcase_add_test(tc, test_glinski_names);
    tcase_add_test(tc, test_names_round_trip);
    tcase_add_test(tc, test_star_and_large_boards);
    tcase_add_test(tc, test_boards_given_by_files);
    tcase_add_test(tc, test_directions);
    tcase_add_test(tc, test_colours);
    tcase_add_test(tc, test_curved_paths);
    suite_add_tcase(s, tc);
    return s;
}
