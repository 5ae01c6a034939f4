/* The learned evaluation (docs/nnue.md): a net file's reader and writer, its features, and the
 * quantised layers after the accumulator, portable and AVX2 (eval/nnue_layers.c; width-independent). */
#ifndef NNUE_H
#define NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../movegen/sums.h"
#include "../rules/variant.h"

enum {
    NNUE_VERSION = 1,
    NNUE_HIDDEN = ACC_WIDTH,/* accumulator width per perspective (movegen/sums.h) */
    NNUE_L1 = 16,           /* first hidden layer */
    NNUE_L2 = 32,           /* second hidden layer */
    NNUE_QA = 127,          /* the accumulator's scale: 1.0 is 127, clipped to [0, 127] */
    NNUE_QB = 64,           /* the hidden layers' weight scale */
    NNUE_QO = 1024,         /* the output weights' scale */
    NNUE_HEADER = 80,       /* bytes before the weights (docs/nnue.md) */
    NNUE_MAX_INPUTS = MAX_PLAYERS * NNUE_HIDDEN,
    NNUE_CHUNK = 4,         /* a layer's inputs are taken four at a time, the bytes of one int32 */
};

struct nnue_net;
/* The layers after the accumulators (perspectives in order, the mover's first): the output's weighted
 * sum of the second layer, before the output bias and the piece-cell term. */
typedef int32_t (*nnue_forward_fn)(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS]);

struct nnue_net {
    char variant[NAME_LEN];
    uint64_t fingerprint;
    int scale;                          /* centipawns per unit of the float output */
    struct feature_weights ft;          /* the positions' accumulators; psqt in output units (NNUE_QA *
                                           NNUE_QO per 1.0) */
    /* The hidden layers' weights by chunk of four inputs, then output: the weight of input
     * NNUE_CHUNK * c + k on output o is [c][o][k], so that one chunk's weights for every output are
     * adjacent (one SIMD pass computes all outputs); the first nplayers * NNUE_HIDDEN inputs are used. */
    int32_t l1_bias[NNUE_L1];
    int8_t l1_weight[NNUE_MAX_INPUTS / NNUE_CHUNK][NNUE_L1][NNUE_CHUNK];
    int32_t l2_bias[NNUE_L2];
    int8_t l2_weight[NNUE_L1 / NNUE_CHUNK][NNUE_L2][NNUE_CHUNK];
    int32_t out_bias;
    int16_t out_weight[NNUE_L2];
    nnue_forward_fn forward;            /* AVX2 where the CPU has it, else the portable loops */
};

/* The features of variant v's pieces. */
void nnue_view_init(struct feature_view *view, const struct variant *v);

/* Reads a net for variant v (NULL: the registered variant the file names); on any error NULL and one
 * line in err. */
struct nnue_net *nnue_load(const char *path, const struct variant *v, char *err, size_t errlen);
struct nnue_net *nnue_from_bytes(const unsigned char *data, size_t len, const struct variant *v, char *err,
                                 size_t errlen);
/* A net of random weights (tests of the machinery) for variant v. */
struct nnue_net *nnue_random(const struct variant *v, uint64_t seed);
/* The file's bytes (malloc'd, *len set), NULL when out of memory. */
unsigned char *nnue_to_bytes(const struct nnue_net *net, size_t *len);
void nnue_free(struct nnue_net *net);

/* The score in centipawns from the accumulators of the perspectives in order (the mover's first): the
 * layers' output plus the mover's piece-cell sum less the mean of the others'. */
int nnue_output(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS]);
/* The layers, for the tests: the portable ones, and the AVX2 ones (NULL when the CPU or the compiler
 * has none). Both give the same integers. */
int32_t nnue_forward_portable(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS]);
nnue_forward_fn nnue_forward_avx2(void);

/* Which nets a game evaluates with (options UseNNUE and EvalFile): none unless use; then for each
 * variant the net of a file added for its definition, else its shipped net, else none. Owned by the
 * one who sets it (a UCI session) and read by its games (engine/game.h), so that games in one process
 * may choose differently; changed only while none of them searches. */
struct nnue_choice {
    bool use;
    int nfiles;
    struct nnue_file {
        struct nnue_net *net;
        char path[1024];
    } file[MAX_VARIANTS];
};

/* Loads path's net for the registered variant it names, replacing an earlier file's net for that
 * definition: the variant, or NULL (nothing changed, one line in err). */
const struct variant *nnue_choice_add_file(struct nnue_choice *c, const char *path, char *err, size_t errlen);
/* Frees the files' nets: the choice keeps only use. */
void nnue_choice_clear(struct nnue_choice *c);
/* The net the choice gives v, NULL for the classical evaluation (so does a NULL choice). A file's net
 * lives until nnue_choice_add_file replaces it or nnue_choice_clear; a shipped one until exit. */
const struct nnue_net *nnue_choice_for(const struct nnue_choice *c, const struct variant *v);
/* What nnue_choice_for(c, v) gives, in words: "NNUE <source> (<variant>)" or "classical (<why>)". */
void nnue_describe(const struct nnue_choice *c, const struct variant *v, char *out, size_t len);

#endif
