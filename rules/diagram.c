/* Text diagrams of a position: plain for `d`, marked or in ANSI colours for terminal play. */
#include "diagram.h"

#include <string.h>

/* MAX_ROWS: a side-9 hexagon in Glinski orientation is 4 * 8 + 1 half-rows high, plus one. */
enum { CELL_WIDTH = 4, MARGIN = 5, MAX_LINE = 4 * 40 + 2 * 5 + 8, MAX_ROWS = 40 };
/* Text rows of a plain diagram: a Glinski row is -(2r + q), with |q|, |r| <= MAX_COORD. */
enum { PLAIN_ROWS = 6 * MAX_COORD + 1 };

/* 256-colour palette: the three cell colours, marked cells, and the armies by colour letter. The
 * cell colours are of one middle brightness, so that white and black letters both stand out. */
static const int cell_shade[3] = { 137, 101, 95 };
enum { MARK_SHADE = 67, WHITE_ARMY = 231, BLACK_ARMY = 16, RED_ARMY = 203, GREEN_ARMY = 34, LABEL_SHADE = 252 };
/* A foreground drawn plain, not bold: cell names, which must not read as pieces. */
enum { PLAIN = 1 << 8 };

/* Text row and column (in half-cell steps) of a cell: Glinski orientation keeps files vertical,
 * Wellisch orientation turns the board 30 degrees so that rows are horizontal. */
static void place(const struct variant *v, int cell, int *row, int *col)
{
    const struct geometry *g = &v->geo;
    int q = g->q[cell], r = g->r[cell];
    if (v->orientation == ORIENT_GLINSKI) {
        *row = -(2 * r + q);
        *col = 2 * (q - g->qmin);
    } else {
        *row = -2 * r;
        *col = 2 * q + r + 3 * g->radius;
    }
}

static void row_range(const struct variant *v, int *rmin, int *rmax)
{
    *rmin = 1 << 20, *rmax = -(1 << 20);
    for (int c = 0; c < v->geo.ncells; c++) {
        int row, col;
        place(v, c, &row, &col);
        *rmin = row < *rmin ? row : *rmin;
        *rmax = row > *rmax ? row : *rmax;
    }
}

static bool is_marked(const struct diagram_style *st, int cell)
{
    return cell == st->mark[0] || cell == st->mark[1];
}

/* Glinski orientation: file letters under their columns. */
static void print_files(FILE *out, const struct variant *v)
{
    const struct geometry *g = &v->geo;
    if (v->orientation != ORIENT_GLINSKI)
        return;
    char files[MAX_LINE];
    memset(files, ' ', sizeof files);
    for (int f = 0; f < g->nfiles; f++)
        files[MARGIN + f * CELL_WIDTH + 1] = g->name[g->file_first[f]][0];
    files[MARGIN + (g->nfiles - 1) * CELL_WIDTH + 2] = 0;
    fprintf(out, "%s\n", files);
}

/* One text row per row of cells, each cell's name at both ends; marked cells in brackets; with names,
 * each empty cell's name in its place. */
static void print_plain(FILE *out, const struct variant *v, const struct setup *s, const struct diagram_style *st)
{
    const struct geometry *g = &v->geo;
    int rmin, rmax;
    row_range(v, &rmin, &rmax);
    /* The cells sorted by row (a counting sort, cell order kept within a row), so that drawing a row
     * visits its own cells, not the whole board again. */
    int x_of[MAX_CELLS], row_of[MAX_CELLS], by_row[MAX_CELLS], row_start[PLAIN_ROWS + 1] = { 0 };
    for (int c = 0; c < g->ncells; c++) {
        int r, col;
        place(v, c, &r, &col);
        x_of[c] = MARGIN + col * CELL_WIDTH / 2;
        row_of[c] = r - rmin;
        row_start[row_of[c] + 1]++;
    }
    for (int i = 0; i < rmax - rmin + 1; i++)
        row_start[i + 1] += row_start[i];
    int filled[PLAIN_ROWS] = { 0 };
    for (int c = 0; c < g->ncells; c++)
        by_row[row_start[row_of[c]] + filled[row_of[c]]++] = c;
    for (int row = 0; row <= rmax - rmin; row++) {
        char line[MAX_LINE];
        memset(line, ' ', sizeof line);
        int first = -1, last = -1, lo = MAX_LINE, hi = 0;
        for (int k = row_start[row]; k < row_start[row + 1]; k++) {
            int c = by_row[k], x = x_of[c];
            char text[SETUP_PIECE_TEXT] = ".";
            if (s->piece[c])
                setup_piece_text(v, s->piece[c], text);
            else if (st->names)
                snprintf(text, sizeof text, "%s", g->name[c]);
            int len = (int)strlen(text), at = x + (len < 2);
            memcpy(line + at, text, (size_t)len);
            if (is_marked(st, c))
                line[at - 1] = '[', line[at + len] = ']';
            if (x < lo)
                lo = x, first = c;
            if (x > hi)
                hi = x, last = c;
        }
        if (first < 0)
            continue;
        /* With names, no cell is named twice: not an end cell that shows its own name, nor the one
         * cell of a corner row. */
        if (!st->names || s->piece[first])
            memcpy(line + lo - 4, g->name[first], strlen(g->name[first]));
        if (!st->names || (s->piece[last] && last != first))
            memcpy(line + hi + 4, g->name[last], strlen(g->name[last]));
        int end = hi + 4 + (int)strlen(g->name[last]);
        while (end > 0 && line[end - 1] == ' ')
            end--;
        line[end] = 0;
        fprintf(out, "%s\n", line);
    }
    print_files(out, v);
}

/* Colour diagrams draw each cell as a block CELL_WIDTH characters wide. In Glinski orientation a
 * block is two rows high and neighbouring files sit one row apart; in Wellisch orientation rows of
 * one-row blocks are offset by half a block. Either way each block touches exactly the blocks of
 * the cell's six neighbours. */
struct blocks {
    int rows;
    int top[MAX_CELLS], left[MAX_CELLS];
    unsigned char cover[MAX_ROWS][MAX_LINE];   /* the cell drawn at each character, or CELL_NONE */
};

static void blocks_build(const struct variant *v, struct blocks *b)
{
    int rmin, rmax;
    row_range(v, &rmin, &rmax);
    /* Wellisch rows of cells are two half-rows apart, with nothing between them. */
    int step = v->orientation == ORIENT_GLINSKI ? 1 : 2, height = 2 / step;
    b->rows = (rmax - rmin) / step + height;
    memset(b->cover, CELL_NONE, sizeof b->cover);
    for (int c = 0; c < v->geo.ncells; c++) {
        int row, col;
        place(v, c, &row, &col);
        b->top[c] = (row - rmin) / step;
        b->left[c] = MARGIN + col * CELL_WIDTH / 2;
        for (int y = b->top[c]; y < b->top[c] + height; y++)
            memset(&b->cover[y][b->left[c]], c, CELL_WIDTH);
    }
}

/* The first (dir 1) or last (dir -1) character of row y that belongs to a cell; -1 above the board. */
static int row_edge(const struct blocks *b, int y, int dir)
{
    for (int i = 0; y >= 0 && i < MAX_LINE; i++) {
        int x = dir > 0 ? i : MAX_LINE - 1 - i;
        if (b->cover[y][x] != CELL_NONE)
            return x;
    }
    return -1;
}

/* The cell at the edge of row y, named there if row y is the first where it is the edge and a piece
 * hides the name the cell shows when empty (block_char). */
static const char *edge_label(const struct variant *v, const struct setup *s, const struct blocks *b, int y, int dir)
{
    int x = row_edge(b, y, dir), above = row_edge(b, y - 1, dir);
    int c = b->cover[y][x];
    return (above >= 0 && b->cover[y - 1][above] == c) || !s->piece[c] ? "" : v->geo.name[c];
}

static void set_style(FILE *out, int bg, int fg)
{
    fputs("\033[0m", out);
    if (bg >= 0)
        fprintf(out, "\033[48;5;%dm", bg);
    if (fg >= 0)
        fprintf(out, "\033[%s38;5;%dm", fg & PLAIN ? "" : "1;", fg & ~PLAIN);
}

static int army_colour(char letter)
{
    return letter == 'b' ? BLACK_ARMY : letter == 'r' ? RED_ARMY : letter == 'g' ? GREEN_ARMY : WHITE_ARMY;
}

/* A piece as its FEN letters, without a compound's brackets: a block has room for three. */
static void piece_label(const struct variant *v, int piece, char *out)
{
    char text[SETUP_PIECE_TEXT];
    setup_piece_text(v, piece, text);
    for (const char *p = text; *p; p++)
        if (*p != '(' && *p != ')')
            *out++ = *p;
    *out = 0;
}

/* The character at x of row y and its colours (-1: the terminal's own). Every cell is named in it,
 * so that coordinates are read off the board, colours or not: in Glinski orientation on the block's
 * second line, under its piece; in Wellisch orientation, whose blocks are one line, where no piece
 * stands (each row is also named at both ends). */
static char block_char(const struct variant *v, const struct setup *s, const struct diagram_style *st,
                       const struct blocks *b, int y, int x, int *bg, int *fg)
{
    int c = b->cover[y][x];
    char text[SETUP_PIECE_TEXT] = "";
    *bg = *fg = -1;
    if (c == CELL_NONE)
        return ' ';
    int i = x - b->left[c] - 1;
    *bg = is_marked(st, c) ? MARK_SHADE : cell_shade[geo_colour_of(&v->geo, c)];
    bool piece = s->piece[c] && y == b->top[c];
    if (piece)
        piece_label(v, s->piece[c], text);
    else if (y > b->top[c] || (v->orientation != ORIENT_GLINSKI && !s->piece[c]))
        snprintf(text, sizeof text, "%s", v->geo.name[c]);
    if (i < 0 || i >= (int)strlen(text))
        return ' ';
    *fg = piece ? army_colour(v->colour_letter[piece_colour(s->piece[c])]) : LABEL_SHADE | PLAIN;
    return text[i];
}

static void print_colour_row(FILE *out, const struct variant *v, const struct setup *s,
                             const struct diagram_style *st, const struct blocks *b, int y)
{
    int lo = row_edge(b, y, 1), hi = row_edge(b, y, -1), bg = -1, fg = -1;
    /* Glinski orientation names every cell inside it, and a name beside a two-line block would sit
     * beside the wrong pieces once the colours are gone. */
    bool edges = v->orientation != ORIENT_GLINSKI;
    fprintf(out, "%*s ", lo - 1, edges ? edge_label(v, s, b, y, 1) : "");
    for (int x = lo; x <= hi; x++) {
        int nbg, nfg;
        char ch = block_char(v, s, st, b, y, x, &nbg, &nfg);
        if (nbg != bg || nfg != fg)
            set_style(out, nbg, nfg);
        bg = nbg, fg = nfg;
        fputc(ch, out);
    }
    /* A row of one cell (the top and bottom corners) is named once. */
    fprintf(out, "\033[0m %s\n", !edges || b->cover[y][lo] == b->cover[y][hi] ? "" : edge_label(v, s, b, y, -1));
}

static void print_colour(FILE *out, const struct variant *v, const struct setup *s, const struct diagram_style *st)
{
    struct blocks b;
    blocks_build(v, &b);
    /* No line of file letters: every cell is named (block_char), and a Glinski board then fits a
     * 24-line terminal with two lines to spare. */
    for (int y = 0; y < b.rows; y++)
        print_colour_row(out, v, s, st, &b, y);
}

void diagram_draw(FILE *out, const struct variant *v, const struct setup *s, const struct diagram_style *st)
{
    if (st->colour)
        print_colour(out, v, s, st);
    else
        print_plain(out, v, s, st);
}

void diagram_print(FILE *out, const struct variant *v, const struct setup *s)
{
    diagram_draw(out, v, s, &(struct diagram_style){ .mark = { CELL_NONE, CELL_NONE } });
}
