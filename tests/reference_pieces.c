/* The reference generator's own table of how the built-in variants' pieces move, written from the
 * rules' words (docs/variants.md, the atoms of docs/variant-format.md, the directions of docs/geometry.md),
 * never from rules/variants.ini. */
#include <string.h>

#include "reference.h"

/* The twelve straight directions as axial vectors (docs/geometry.md): orthogonals O0..O5 counter-clockwise from
 * up the file, diagonals Di = Oi + O(i+1). The first player's forward is O0 in Glinski orientation and
 * D0 in Wellisch orientation; its half-forward orthogonals are then O1 and O5, or O0 and O1. */
#define O0 { 0, 1 }
#define O1 { -1, 1 }
#define O2 { -1, 0 }
#define O3 { 0, -1 }
#define O4 { 1, -1 }
#define O5 { 1, 0 }
#define D0 { -1, 2 }
#define D1 { -2, 1 }
#define D2 { -1, -1 }
#define D3 { 1, -2 }
#define D4 { 2, -1 }
#define D5 { 1, 1 }

#define DIRS(...) { __VA_ARGS__ }
#define ORTH DIRS(O0, O1, O2, O3, O4, O5)
#define DIAG DIRS(D0, D1, D2, D3, D4, D5)
/* The twelve root-7 leaps (docs/geometry.md), the Knight's. */
#define ROOT7 DIRS({ 2, 1 }, { 1, 2 }, { -1, 3 }, { -2, 3 }, { -3, 2 }, { -3, 1 }, \
                   { -2, -1 }, { -1, -2 }, { 1, -3 }, { 2, -3 }, { 3, -2 }, { 3, -1 })

/* The movement atoms (docs/variant-format.md) in the reference's words. mode: MOVE (never captures), CAPTURE (only
 * captures) or BOTH. */
#define LEAP(n, dirs, mode) { REF_LEAP, MODE_##mode, n, dirs }         /* n steps along a vector */
#define START_LEAP(n, dirs, mode) { REF_START_LEAP, MODE_##mode, n, dirs } /* from start cells only */
#define SLIDE(dirs, mode) { REF_SLIDE, MODE_##mode, 0, dirs }
#define CURVE(steps, dirs, mode) { REF_CURVE, MODE_##mode, steps, dirs } /* at most `steps` steps */
#define HOP(dirs) { REF_HOP, MODE_CAPTURE, 0, dirs }
#define CROOKED(turn, dirs) { REF_CROOKED, MODE_BOTH, turn, dirs } /* turns of `turn` sixths, left and right by turns */
#define BENT(dirs) { REF_BENT, MODE_BOTH, 0, dirs }       /* the first step's vectors */
#define JOINED(dirs) { REF_JOINED, MODE_BOTH, 0, dirs }

#define W LEAP(1, ORTH, BOTH)  /* one orthogonal step */
#define F LEAP(1, DIAG, BOTH)  /* one diagonal step */
#define D LEAP(2, ORTH, BOTH)  /* two orthogonal steps in one line */
#define H LEAP(3, ORTH, BOTH)  /* three orthogonal steps in one line */
#define N LEAP(1, ROOT7, BOTH)
#define R SLIDE(ORTH, BOTH)
#define B SLIDE(DIAG, BOTH)
#define NN SLIDE(ROOT7, BOTH)  /* a root-7 leap repeated in one line over empty landing cells */
#define CR CURVE(5, ORTH, BOTH) /* a 6th step would return to the start */
#define CB CURVE(5, DIAG, BOTH)

/* One entry per movement of the built-in variants' pieces (docs/variants.md's piece tables, Wellisch's
 * knight included): the names the rules give the movement, then the atoms; pawns also their double step and en passant. */
enum kind {
    KING, GENERAL, QUEEN, ROOK, BISHOP, KNIGHT, WAZIR, FIRZAN, SAILOR, MISSIONARY, THUNDERBIRD, HIPPO,
    PEGASUS, HYDRA, PACEY_UNICORN, VICEREINE, FINCH, FLATSTAR_FINCH, RABBI, COHEN, FLATSTAR_COHEN,
    FINCHRIDER, RABBIRIDER, VICERRANGER, BESIERANGER, WAITRESS, CONTRAWAITRESS, SHAMMES, CONTRASHAMMES,
    RECUERIDER_ROOK, TEUCERIDER_ROOK, TEUCERIDER_UNICORN, RECUERIDER_UNICORN, CERUET_FINCH, UETCER_FINCH,
    UETCER_RABBI, CERUET_RABBI, SLING, FOREROOK, HINDROOK, GLINSKI_PAWN, MCCOOEY_PAWN, MISHLING_BROKER, HAYNIE_PAWN, WELLISCH_POINT,
    ND_POINT, DEVASA_PAWN, BRUSKY_PAWN, FLATSTAR_POINT,
    LONGGIRLHEXER, LONGRANGEHEXER, LONGDOUBLEHEXER, SHORTGIRLHEXER, SHORTRANGEHEXER, SHORTDOUBLEHEXER,
    GIRLHEXER, RANGEHEXER, DOUBLEHEXER, SIMURGH, FARRIER, HIPPOGRYPH, JACKAL, COYOTE, WEREJACKAL, NKINDS
};

static const struct reference_piece kinds[NKINDS] = {
    [KING]           = { "King, Grandduke",             { W, F } },
    [GENERAL]        = { "General",                     { W } },
    [QUEEN]          = { "Queen, Duchess (also of Waitresses)", { R, B } },
    [ROOK]           = { "Rook",                        { R } },
    [BISHOP]         = { "Bishop, Unicorn (Gilman)",    { B } },
    [KNIGHT]         = { "Knight, Sennight",            { N } },
    [WAZIR]          = { "Wazir",                       { W } },
    [FIRZAN]         = { "Firzan, Wellisch knight",     { F } },
    [SAILOR]         = { "Sailor",                      { R, W, F } },
    [MISSIONARY]     = { "Missionary",                  { B, W, F } },
    [THUNDERBIRD]    = { "Thunderbird, Vicbaba",        { D, F } },
    [HIPPO]          = { "Hippo",                       { D, F, W } },
    [PEGASUS]        = { "Pegasus, Seiopelma",          { H, N } },
    [HYDRA]          = { "Hydra",                       { H, N, W, F } },
    [PACEY_UNICORN]  = { "Unicorn (Pacey)",             { B, NN } },
    [VICEREINE]      = { "Vicereine",                   { R, F } },
    [FINCH]          = { "Finch",                       { CR } },
    [FLATSTAR_FINCH] = { "Finch (Flatstar)",            { CURVE(4, ORTH, BOTH) } },
    [RABBI]          = { "Rabbi",                       { CB } },
    [COHEN]          = { "Cohen (also of Shammeses)",   { CR, CB } },
    [FLATSTAR_COHEN] = { "Cohen (Flatstar)",            { CURVE(4, ORTH, BOTH), CB } },
    [FINCHRIDER]     = { "Finchrider",                  { R, CR } },
    [RABBIRIDER]     = { "Rabbirider",                  { B, CB } },
    [VICERRANGER]    = { "Vicerranger",                 { R, CB } },
    [BESIERANGER]    = { "Besieranger",                 { B, CR } },
    [WAITRESS]       = { "Waitress",                    { SLIDE(ORTH, MOVE), SLIDE(DIAG, CAPTURE) } },
    [CONTRAWAITRESS] = { "Contrawaitress",              { SLIDE(DIAG, MOVE), SLIDE(ORTH, CAPTURE) } },
    [SHAMMES]        = { "Shammes",                     { CURVE(5, ORTH, MOVE), CURVE(5, DIAG, CAPTURE) } },
    [CONTRASHAMMES]  = { "Contrashammes",               { CURVE(5, DIAG, MOVE), CURVE(5, ORTH, CAPTURE) } },
    /* Seed 000: each a Duchess (Cohen) without one kind of its moves: the name says which. */
    [RECUERIDER_ROOK]    = { "Recuerider Rook: no non-capturing Unicorn moves", { R, SLIDE(DIAG, CAPTURE) } },
    [TEUCERIDER_ROOK]    = { "Teucerider Rook: no capturing Unicorn moves",     { R, SLIDE(DIAG, MOVE) } },
    [TEUCERIDER_UNICORN] = { "Teucerider Unicorn: no capturing Rook moves",     { B, SLIDE(ORTH, MOVE) } },
    [RECUERIDER_UNICORN] = { "Recuerider Unicorn: no non-capturing Rook moves", { B, SLIDE(ORTH, CAPTURE) } },
    [CERUET_FINCH]       = { "Ceruet Finch: no non-capturing Rabbi moves",      { CR, CURVE(5, DIAG, CAPTURE) } },
    [UETCER_FINCH]       = { "Uetcer Finch: no capturing Rabbi moves",          { CR, CURVE(5, DIAG, MOVE) } },
    [UETCER_RABBI]       = { "Uetcer Rabbi: no capturing Finch moves",          { CB, CURVE(5, ORTH, MOVE) } },
    [CERUET_RABBI]       = { "Ceruet Rabbi: no non-capturing Finch moves",      { CB, CURVE(5, ORTH, CAPTURE) } },
    [SLING]          = { "Sling",                       { SLIDE(DIAG, MOVE), HOP(DIAG) } },
    /* Gilman's substitutes (variant-format.md): Long- turns 60 degrees, Short- 120, unprefixed either. */
    [LONGGIRLHEXER]  = { "Longgirlhexer",               { CROOKED(1, ORTH) } },
    [LONGRANGEHEXER] = { "Longrangehexer",              { CROOKED(1, DIAG) } },
    [LONGDOUBLEHEXER] = { "Longdoublehexer",            { CROOKED(1, ORTH), CROOKED(1, DIAG) } },
    [SHORTGIRLHEXER] = { "Shortgirlhexer",              { CROOKED(2, ORTH) } },
    [SHORTRANGEHEXER] = { "Shortrangehexer",            { CROOKED(2, DIAG) } },
    [SHORTDOUBLEHEXER] = { "Shortdoublehexer",          { CROOKED(2, ORTH), CROOKED(2, DIAG) } },
    [GIRLHEXER]      = { "Girlhexer",                   { CROOKED(1, ORTH), CROOKED(2, ORTH) } },
    [RANGEHEXER]     = { "Rangehexer",                  { CROOKED(1, DIAG), CROOKED(2, DIAG) } },
    [DOUBLEHEXER]    = { "Doublehexer",                 { CROOKED(1, ORTH), CROOKED(2, ORTH), CROOKED(1, DIAG),
                                                          CROOKED(2, DIAG) } },
    /* A Viceroy (diagonal) step then a Rook slide; a Wazir step then a Unicorn slide. */
    [SIMURGH]        = { "Simurgh",                     { BENT(DIAG) } },
    [FARRIER]        = { "Farrier",                     { BENT(ORTH) } },
    [HIPPOGRYPH]     = { "Hippogryph",                  { BENT(DIAG), BENT(ORTH) } },
    /* Two Viceroy steps joined by an optional Rook slide; two Wazir steps by an optional Unicorn slide. */
    [JACKAL]         = { "Jackal",                      { JOINED(DIAG) } },
    [COYOTE]         = { "Coyote",                      { JOINED(ORTH) } },
    [WEREJACKAL]     = { "Werejackal",                  { JOINED(DIAG), JOINED(ORTH) } },
    /* Forward and both half-backward orthogonals; backward and both half-forward (Glinski orientation). */
    [FOREROOK]       = { "Forerook",                    { SLIDE(DIRS(O0, O2, O4), BOTH) } },
    [HINDROOK]       = { "Hindrook",                    { SLIDE(DIRS(O1, O3, O5), BOTH) } },
    /* Glinski orientation: forward O0, forward diagonals D0 and D5, half-forward orthogonals O1 and O5. */
    [GLINSKI_PAWN]   = { "Glinski pawn, Migrant",       { LEAP(1, DIRS(O0), MOVE), LEAP(1, DIRS(O1, O5), CAPTURE) },
                         .double_step = DIRS(O0), .en_passant = true },
    [MCCOOEY_PAWN]   = { "McCooey pawn, Broker (ND)",   { LEAP(1, DIRS(O0), MOVE), LEAP(1, DIRS(D0, D5), CAPTURE) },
                         .double_step = DIRS(O0), .en_passant = true },
    [MISHLING_BROKER] = { "Broker (Mishling)",          { LEAP(1, DIRS(O0), MOVE), LEAP(1, DIRS(D0, D5), CAPTURE) } },
    /* Toward the central file: O1 from its right, O5 from its left, neither on it. */
    [FLATSTAR_POINT] = { "Flatstar Point",              { LEAP(1, DIRS(O0, O1, O5), BOTH) },
                         .double_step = DIRS(O0), .en_passant = true, .centreward = true },
    /* Wellisch orientation: forward D0, forward diagonals D5 D0 D1, half-forward orthogonals O0 and O1. */
    [HAYNIE_PAWN]    = { "Haynie pawn",                 { LEAP(1, DIRS(O0, O1), MOVE),
                                                          LEAP(1, DIRS(D5, D0, D1), CAPTURE) } },
    [WELLISCH_POINT] = { "Point (Wellisch)",            { LEAP(1, DIRS(O0, O1), BOTH) } },
    [ND_POINT]       = { "Point (ND Wellisch)",         { LEAP(1, DIRS(O0, O1), BOTH) },
                         .double_step = DIRS(O0, O1), .en_passant = true },
    /* Steps to either half-forward orthogonal (two from its start), takes on the forward diagonals to
     * the sides, one row up (variants.md, De Vasa). */
    [DEVASA_PAWN]    = { "De Vasa pawn",                { LEAP(1, DIRS(O0, O1), MOVE), LEAP(1, DIRS(D5, D1), CAPTURE) },
                         .double_step = DIRS(O0, O1), .en_passant = true },
    /* De Vasa's, and from its start cells also a capture straight ahead (D0, the cell of its colour);
     * there an enemy on either cell it steps to blocks its steps (variants.md, Brusky). */
    [BRUSKY_PAWN]    = { "Brusky pawn",                 { LEAP(1, DIRS(O0, O1), MOVE), LEAP(1, DIRS(D5, D1), CAPTURE),
                                                          START_LEAP(1, DIRS(D0), CAPTURE) },
                         .double_step = DIRS(O0, O1), .en_passant = true, .blocked = true },
};

/* The armies of variants.md: each piece letter of the variants on a row and its movement. */
enum { ARMY_VARIANTS = 4, ARMY_PIECES = 16 };

struct army {
    const char *variant[ARMY_VARIANTS];
    struct { char letter; enum kind kind; } piece[ARMY_PIECES];
};

static const struct army armies[] = {
    { { "glinski" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', GLINSKI_PAWN } } },
    { { "mccooey" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', MCCOOEY_PAWN } } },
    { { "haynie" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'W', WAZIR },
        { 'F', FIRZAN }, { 'P', HAYNIE_PAWN } } },
    { { "full-house" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', GLINSKI_PAWN },
        { 'S', SAILOR }, { 'M', MISSIONARY }, { 'T', THUNDERBIRD }, { 'H', HIPPO }, { 'E', PEGASUS },
        { 'Y', HYDRA }, { 'U', PACEY_UNICORN } } },
    { { "mishling", "mishling-trios" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER } } },
    { { "mishling-4c" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'H', FINCHRIDER }, { 'J', RABBIRIDER } } },
    { { "mishling-fusion", "mishling-4c-fusion" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'H', FINCHRIDER }, { 'J', RABBIRIDER },
        { 'V', VICERRANGER }, { 'E', BESIERANGER } } },
    { { "waitress" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'W', WAITRESS }, { 'X', CONTRAWAITRESS } } },
    { { "shammes" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'M', SHAMMES }, { 'N', CONTRASHAMMES } } },
    /* Divergent Fusion: Q is the Duchess (Cohen) that the divergent pair formed (the -swap games lack it). */
    { { "waitress-fusion", "waitress-fusion-swap" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'W', WAITRESS }, { 'X', CONTRAWAITRESS },
        { 'Q', QUEEN }, { 'A', RECUERIDER_ROOK }, { 'T', TEUCERIDER_ROOK }, { 'Y', TEUCERIDER_UNICORN },
        { 'B', RECUERIDER_UNICORN } } },
    { { "shammes-fusion", "shammes-fusion-swap" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', COHEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', FINCH }, { 'I', RABBI }, { 'P', MISHLING_BROKER }, { 'M', SHAMMES }, { 'N', CONTRASHAMMES },
        { 'Q', COHEN }, { 'A', CERUET_FINCH }, { 'T', UETCER_FINCH }, { 'Y', UETCER_RABBI },
        { 'B', CERUET_RABBI } } },
    { { "mishling-long" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', LONGDOUBLEHEXER }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', LONGGIRLHEXER }, { 'I', LONGRANGEHEXER }, { 'P', MISHLING_BROKER } } },
    { { "mishling-short" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', SHORTDOUBLEHEXER }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', SHORTGIRLHEXER }, { 'I', SHORTRANGEHEXER }, { 'P', MISHLING_BROKER } } },
    { { "mishling-crooked" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', DOUBLEHEXER }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', GIRLHEXER }, { 'I', RANGEHEXER }, { 'P', MISHLING_BROKER } } },
    { { "mishling-simurgh" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', HIPPOGRYPH }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', SIMURGH }, { 'I', FARRIER }, { 'P', MISHLING_BROKER } } },
    { { "mishling-jackal" },
      { { 'K', KING }, { 'D', QUEEN }, { 'C', WEREJACKAL }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', KNIGHT },
        { 'F', JACKAL }, { 'I', COYOTE }, { 'P', MISHLING_BROKER } } },
    { { "flatstar" },
      { { 'G', GENERAL }, { 'R', ROOK }, { 'C', FLATSTAR_COHEN }, { 'F', FLATSTAR_FINCH }, { 'I', RABBI },
        { 'L', SLING }, { 'S', KNIGHT }, { 'P', FLATSTAR_POINT } } },
    { { "wellisch" },
      { { 'G', GENERAL }, { 'V', VICEREINE }, { 'R', ROOK }, { 'E', FIRZAN }, { 'P', WELLISCH_POINT } } },
    { { "shafran" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', MCCOOEY_PAWN } } },
    { { "brusky" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', BRUSKY_PAWN } } },
    { { "devasa" },
      { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', DEVASA_PAWN } } },
    { { "nd-wellisch", "nd-wellisch-3p", "nd-wellisch-4p", "nd-wellisch-trios-4p" },
      { { 'G', GENERAL }, { 'V', VICEREINE }, { 'R', ROOK }, { 'B', THUNDERBIRD }, { 'P', ND_POINT } } },

    { { "nd-mccooey", "nd-mccooey-3p" },
      { { 'K', KING }, { 'D', QUEEN }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', PEGASUS }, { 'P', MCCOOEY_PAWN } } },
    { { "nd-anglojewish", "nd-anglojewish-3p" },
      { { 'G', GENERAL }, { 'C', COHEN }, { 'F', FINCH }, { 'I', RABBI }, { 'S', PEGASUS }, { 'P', MCCOOEY_PAWN } } },
    { { "nd-altorth", "nd-altorth-3p" },
      { { 'G', GENERAL }, { 'R', ROOK }, { 'F', FOREROOK }, { 'H', HINDROOK }, { 'B', THUNDERBIRD },
        { 'P', GLINSKI_PAWN } } },
    { { "nd-trios" },
      { { 'K', KING }, { 'R', ROOK }, { 'U', BISHOP }, { 'S', PEGASUS }, { 'P', MCCOOEY_PAWN },
        { 'M', GLINSKI_PAWN } } },
};

/* In games of different armies, the armies after the first (army >= 1), by their number. */
static const struct { int army; struct army a; } later_armies[] = {
    /* The original McCooey army beside the ND Wellisch ones (variants.md, nd-wellisch-4p). */
    { 1, { { "nd-wellisch-4p" },
           { { 'K', KING }, { 'Q', QUEEN }, { 'R', ROOK }, { 'B', BISHOP }, { 'N', KNIGHT }, { 'P', MCCOOEY_PAWN } } } },
    /* The original Trios army beside them: the Knight McCooey's, not doubled (nd-wellisch-trios-4p). */
    { 1, { { "nd-wellisch-trios-4p" },
           { { 'K', KING }, { 'R', ROOK }, { 'U', BISHOP }, { 'N', KNIGHT }, { 'P', MCCOOEY_PAWN },
             { 'M', GLINSKI_PAWN } } } },
};

static const struct reference_piece *army_piece(const struct army *a, const char *variant, char letter)
{
    for (int k = 0; k < ARMY_VARIANTS; k++) {
        if (!a->variant[k] || strcmp(a->variant[k], variant))
            continue;
        for (int i = 0; i < ARMY_PIECES && a->piece[i].letter; i++)
            if (a->piece[i].letter == letter)
                return &kinds[a->piece[i].kind];
    }
    return NULL;
}

/* Seed 003's Trios rule: the double step belongs only to a pawn of a Trios army that starts directly behind
 * one of its own kind, whatever the variant's double-step cells say. */
static const struct { const char *variant; int army; } behind_own_kind[] = {
    { "nd-trios", 0 },
    { "nd-wellisch-trios-4p", 1 },
};

bool reference_double_behind(const char *variant, int army)
{
    for (size_t i = 0; i < sizeof behind_own_kind / sizeof *behind_own_kind; i++)
        if (!strcmp(behind_own_kind[i].variant, variant) && behind_own_kind[i].army == army)
            return true;
    return false;
}

const struct reference_piece *reference_piece_of(const char *variant, int army, char letter)
{
    const struct reference_piece *p = NULL;
    for (size_t a = 0; !army && !p && a < sizeof armies / sizeof *armies; a++)
        p = army_piece(&armies[a], variant, letter);
    for (size_t a = 0; !p && a < sizeof later_armies / sizeof *later_armies; a++)
        if (later_armies[a].army == army)
            p = army_piece(&later_armies[a].a, variant, letter);
    return p;
}
