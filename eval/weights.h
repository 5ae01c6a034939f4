/* The evaluation's weights: every term is a count times a weight (docs/eval.md), so one tuner fits
 * them all. The weights are data: eval/weights/<variant>.txt, embedded at build time, loadable at
 * run time; the settings below them are not tuned. */
#ifndef WEIGHTS_H
#define WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>

#include "../rules/variant.h"
#include "../util/text.h"

/* A weight for the middlegame and one for the endgame; the evaluation blends them by phase. */
struct phased {
    int mg, eg;
};

enum {
    RIM_MAX = 10,       /* cells from the rim: 0 .. 9 (hexagon of side 10) */
    ADVANCE_MAX = 24,   /* a pawn's steps toward promotion, clamped */
    SAFETY_MAX = 25,    /* attack units on a royal's zone, clamped */
    TRIAD_MAX = 4,      /* cell colours a colour-bound piece type covers: 0 .. 3 */
};

/* Weight ids: families of weights indexed by piece type or by a number, laid out one after another. */
enum {
    W_VALUE = 0,
    W_MOBILITY = W_VALUE + MAX_TYPES,
    W_THREAT = W_MOBILITY + MAX_TYPES,
    W_HANGING = W_THREAT + MAX_TYPES,
    W_PASSED = W_HANGING + MAX_TYPES,
    W_PROTECTED = W_PASSED + MAX_TYPES,
    W_ISOLATED = W_PROTECTED + MAX_TYPES,
    W_BLOCKED = W_ISOLATED + MAX_TYPES,
    W_DOUBLED = W_BLOCKED + MAX_TYPES,
    W_LEADER = W_DOUBLED + MAX_TYPES,
    W_CENTRE = W_LEADER + MAX_TYPES,
    W_ROYAL_CENTRE = W_CENTRE + RIM_MAX,
    W_ADVANCE = W_ROYAL_CENTRE + RIM_MAX,
    W_SAFETY = W_ADVANCE + ADVANCE_MAX,
    W_SHIELD = W_SAFETY + SAFETY_MAX,
    W_SHELTER,
    W_TRIAD,
    W_TEMPO = W_TRIAD + TRIAD_MAX,
    NUM_WEIGHTS
};

/* The evaluation's terms, as the `eval` command prints them; every weight belongs to one. */
enum { TERM_MATERIAL, TERM_PST, TERM_MOBILITY, TERM_ROYAL, TERM_PAWNS, TERM_THREATS, TERM_TRIAD, TERM_TEMPO,
       TERM_BALANCE, NUM_TERMS };
extern const char *const eval_term_names[NUM_TERMS];

/* What a family's index means: the piece types it applies to, or a number. */
enum weight_index { BY_NONE, BY_TYPE, BY_PIECE, BY_PAWN, BY_NUMBER };

struct weight_family {
    const char *name;
    int first, count;
    enum weight_index by;
    int term;
    int min_players; /* only in variants of at least this many players */
};

extern const struct weight_family weight_families[];

/* A variant's weights, and where they came from (for `eval`). */
struct eval_params {
    struct phased w[NUM_WEIGHTS];
    /* Centipawns: mobility, royal safety and threats are skipped when material, piece-cell tables and
     * pawns put the score this far outside the search's window (the line "lazy-margin <cp>"). */
    int lazy_margin;
    char source[256];
};

/* The weights files built into the executable (the .txt files of eval/weights/, by eval/weights_embed.sh). */
struct weights_file {
    const char *name, *text;
};
extern const struct weights_file weights_builtin[];

/* The family of weight id, and its index in the family. */
const struct weight_family *weights_family(int id, int *index);
/* Whether the weight means something in the variant (a per-type weight of one of its types). */
bool weights_applies(const struct variant *v, int id);
/* "value.knight", "centre.3", "tempo". */
void weights_name(const struct variant *v, int id, char *name, size_t len);
/* The built-in weights of the variant: piece values derived as eval/values.c says, then the family
 * default (default.txt), then the variant's own file (<variant>.txt) if there is one. */
bool weights_for_variant(const struct variant *v, struct eval_params *p, char *err, size_t errlen);
/* The same before the variant's own files: the derived piece values and the family default alone. */
bool weights_default(const struct variant *v, struct eval_params *p, char *err, size_t errlen);
/* Applies a weights text on top of p; on an error p is unchanged and err is "<source>:<line>: <why>". */
bool weights_parse(const struct variant *v, const char *text, const char *source, struct eval_params *p, char *err,
                   size_t errlen);
/* The variant's built-in weights with the file's on top; one error line and p unchanged on failure. */
bool weights_load_file(const struct variant *v, const char *path, struct eval_params *p, char *err, size_t errlen);
/* Every weight that applies to the variant, one line each, in the format weights_parse reads. */
void weights_write(const struct variant *v, const struct eval_params *p, struct text *out);

/* Settings of the evaluation that are not tuned. A search reads its own copy (struct search_shared),
 * taken when it starts; the weights themselves belong to the variant's tables (eval.h), which are
 * rebuilt only between searches. */
struct eval_weights {
    int stalemate_scale;         /* centipawns of a whole point: a 3/4 stalemate is worth scale / 2 */
    int material_only;           /* 1: material alone, for weak baselines in matches (option Evaluation) */
};

extern const struct eval_weights eval_weights_default;

#endif
