/* A variant as JSON: cells with centres, hexagons, colours and names in the first army's view; the
 * armies' rotations; the pieces; the piece guide. */
#include "board_json.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../engine/engine.h"
#include "../rules/registry.h"

/* The hexagons' circumradius in SVG user units, and the margin around the board. */
static const double CELL_RADIUS = 10, MARGIN = 2;

static double rounded(double x)
{
    return round(x * 100) / 100;
}

/* A cell's centre, y downward with the first army at the bottom. Glinski orientation: flat-topped
 * hexagons, files vertical; Wellisch orientation: the board turned 30 degrees clockwise, pointy-topped
 * hexagons in horizontal rows (as rules/diagram.c places them). */
static void cell_centre(const struct variant *v, int cell, double *x, double *y)
{
    double q = v->geo.q[cell], r = v->geo.r[cell], root3 = sqrt(3);
    if (v->orientation == ORIENT_GLINSKI) {
        *x = 1.5 * q * CELL_RADIUS;
        *y = -(r + q / 2) * root3 * CELL_RADIUS;
    } else {
        *x = (q + r / 2) * root3 * CELL_RADIUS;
        *y = -1.5 * r * CELL_RADIUS;
    }
}

static json_t *cell_json(const struct variant *v, int cell, double box[4])
{
    double x, y;
    cell_centre(v, cell, &x, &y);
    json_t *points = json_array();
    /* Glinski hexagons have corners at 0, 60, ... degrees, Wellisch ones at 30, 90, ... */
    double first = v->orientation == ORIENT_GLINSKI ? 0 : 30;
    for (int k = 0; k < 6; k++) {
        double a = (first + 60 * k) * acos(-1) / 180;
        double px = rounded(x + CELL_RADIUS * cos(a)), py = rounded(y + CELL_RADIUS * sin(a));
        box[0] = fmin(box[0], px), box[1] = fmin(box[1], py);
        box[2] = fmax(box[2], px), box[3] = fmax(box[3], py);
        json_array_append_new(points, json_pack("[f, f]", px, py));
    }
    return json_pack("{s:s, s:f, s:f, s:i, s:o}", "name", v->geo.name[cell], "x", rounded(x), "y", rounded(y),
                     "colour", geo_colour_of(&v->geo, cell), "points", points);
}

static json_t *board_cells(const struct variant *v)
{
    double box[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
    json_t *cells = json_array();
    for (int c = 0; c < v->geo.ncells; c++)
        json_array_append_new(cells, cell_json(v, c, box));
    json_t *view = json_pack("[f, f, f, f]", box[0] - MARGIN, box[1] - MARGIN, box[2] - box[0] + 2 * MARGIN,
                             box[3] - box[1] + 2 * MARGIN);
    return json_pack("{s:o, s:o}", "viewBox", view, "cells", cells);
}

json_t *board_variants(void)
{
    json_t *list = json_array();
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        json_array_append_new(list, json_pack("{s:s, s:i, s:i, s:s}", "name", v->name, "players", v->nplayers,
                                              "cells", v->geo.ncells, "description", v->description));
    }
    return list;
}

void board_piece_letters(const struct variant *v, int type, char *out)
{
    char text[SETUP_PIECE_TEXT];
    setup_piece_text(v, piece_make(0, type), text);
    /* Three- and four-player FEN writes the army's letter first. */
    strcpy(out, text + (v->nplayers > 2));
}

const char *board_army_name(char letter)
{
    return letter == 'w' ? "White" : letter == 'b' ? "Black" : letter == 'g' ? "Green" : "Red";
}

json_t *board_variant(const struct variant *v)
{
    json_t *armies = json_array(), *pieces = json_array();
    for (int p = 0; p < v->nplayers; p++) {
        char letter[2] = { v->colour_letter[p], 0 };
        /* The army's moves are the first army's turned counter-clockwise by rotation[p] sixths: turning
         * the board as far clockwise brings it to the bottom. */
        json_array_append_new(armies, json_pack("{s:s, s:s, s:i, s:i}", "letter", letter, "name",
                                                board_army_name(letter[0]), "rotation", v->rotation[p] * 60 % 360,
                                                "army", v->army[p]));
    }
    for (int t = 0; t < v->ntypes; t++) {
        char letters[SETUP_PIECE_TEXT];
        board_piece_letters(v, t, letters);
        const struct piece_def *pd = &v->piece[t];
        json_array_append_new(pieces, json_pack("{s:s, s:s, s:b, s:b, s:i, s:s}", "letter", letters, "name", pd->name,
                                                "royal", pd->royal, "pawn", pd->pawn, "army", pd->army,
                                                "description", pd->description));
    }
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:o}", "name", v->name, "description", v->description,
                     "players", v->nplayers, "orientation", v->orientation == ORIENT_GLINSKI ? "glinski" : "wellisch",
                     "start", v->start_fen, "armies", armies, "pieces", pieces, "board", board_cells(v));
}

/* A game of each variant asked about so far: building its tables is the guide's only real cost. */
static struct {
    pthread_mutex_t lock;
    struct game g[MAX_VARIANTS];
    int n;
} guide_games = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The guide only reads a game's tables, which never change once built: the games are shared and kept
 * for the program's life. */
static const struct game *game_of(const struct variant *v, char *err, size_t errlen)
{
    const struct game *g = NULL;
    pthread_mutex_lock(&guide_games.lock);
    for (int i = 0; i < guide_games.n && !g; i++)
        if (guide_games.g[i].v == v)
            g = &guide_games.g[i];
    if (!g && guide_games.n == MAX_VARIANTS)
        snprintf(err, errlen, "out of memory");
    else if (!g && game_init(&guide_games.g[guide_games.n], v, false, err, errlen))
        g = &guide_games.g[guide_games.n++];
    pthread_mutex_unlock(&guide_games.lock);
    return g;
}

json_t *board_guide(const struct variant *v, const char *piece, int army, const char *cell, char *err, size_t errlen)
{
    int type = -1, from = geo_cell(&v->geo, 0, 0), len = 0, player = 0;
    /* Different armies may give one letter to two pieces: the army's, seen from its first player. */
    while (player < v->nplayers - 1 && v->army[player] != army)
        player++;
    for (int t = 0; t < v->ntypes && type < 0; t++) {
        char letters[SETUP_PIECE_TEXT];
        board_piece_letters(v, t, letters);
        type = piece && !strcmp(piece, letters) && v->piece[t].army == army ? t : -1;
    }
    if (cell)
        from = geo_parse_cell(&v->geo, cell, &len);
    if (type < 0 || from == CELL_NONE || (cell && cell[len])) {
        snprintf(err, errlen, type < 0 ? "unknown piece in %s" : "unknown cell in %s", v->name);
        return NULL;
    }
    const struct game *g = game_of(v, err, errlen);
    if (!g)
        return NULL;
    bool quiet[MAX_CELLS] = { 0 }, capture[MAX_CELLS] = { 0 };
    game_piece_reach(g, player, type, from, quiet, capture);
    json_t *moves = json_array(), *captures = json_array();
    for (int c = 0; c < v->geo.ncells; c++) {
        if (quiet[c])
            json_array_append_new(moves, json_string(v->geo.name[c]));
        if (capture[c])
            json_array_append_new(captures, json_string(v->geo.name[c]));
    }
    return json_pack("{s:s, s:o, s:o}", "cell", v->geo.name[from], "moves", moves, "captures", captures);
}
