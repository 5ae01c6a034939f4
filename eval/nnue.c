/* The net file format, the net's output and the choice of net (docs/nnue.md); the layers are eval/nnue_layers.c's. */
#include "nnue.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../util/file.h"
#include "../util/le.h"
#include "../util/random.h"
#include "nets.h"

static const char magic[8] = "SNNUE\r\n\x1a";

void nnue_view_init(struct feature_view *view, const struct variant *v)
{
    view->nplayers = v->nplayers;
    view->ntypes = v->ntypes;
    view->ncells = v->geo.ncells;
    view->nfeatures = v->nplayers * v->ntypes * v->geo.ncells;
    /* variant_map_cell takes the first army's cells to army p's; perspective p needs the inverse. */
    for (int p = 0; p < v->nplayers; p++)
        for (int c = 0; c < v->geo.ncells; c++)
            view->cell[p][variant_map_cell(v, c, p)] = (unsigned char)c;
}

/* CRC-32 (zlib's, which the trainer writes with zlib.crc32). */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc >> 1 ^ (0xEDB88320u & -(crc & 1));
    }
    return ~crc;
}

static size_t body_size(const struct feature_view *view)
{
    size_t inputs = (size_t)view->nplayers * NNUE_HIDDEN, features = (size_t)view->nfeatures;
    return 2 * NNUE_HIDDEN + (2 * NNUE_HIDDEN + 4) * features + 4 * NNUE_L1 + NNUE_L1 * inputs + 4 * NNUE_L2
           + NNUE_L2 * NNUE_L1 + 4 + 2 * NNUE_L2;
}

static struct nnue_net *net_new(const struct variant *v)
{
    struct nnue_net *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    nnue_view_init(&net->ft.view, v);
    net->ft.weight = calloc((size_t)net->ft.view.nfeatures * NNUE_HIDDEN, sizeof *net->ft.weight);
    net->ft.psqt_weight = calloc((size_t)net->ft.view.nfeatures, sizeof *net->ft.psqt_weight);
    if (!net->ft.weight || !net->ft.psqt_weight) {
        nnue_free(net);
        return NULL;
    }
    snprintf(net->variant, sizeof net->variant, "%s", v->name);
    net->fingerprint = v->fingerprint;
    net->forward = nnue_forward_avx2();
    if (!net->forward)
        net->forward = nnue_forward_portable;
    return net;
}

void nnue_free(struct nnue_net *net)
{
    if (net) {
        free(net->ft.weight);
        free(net->ft.psqt_weight);
    }
    free(net);
}

/* The fields in file order: each array once, read or written by the same walk. */
struct cursor {
    unsigned char *p;
    bool write;
};

static void field(struct cursor *c, void *values, int count, int bytes)
{
    for (int i = 0; i < count; i++, c->p += bytes) {
        if (c->write) {
            int64_t x = bytes == 1   ? ((int8_t *)values)[i]
                        : bytes == 2 ? ((int16_t *)values)[i]
                                     : ((int32_t *)values)[i];
            le_put(c->p, (uint64_t)x, bytes);
            continue;
        }
        uint64_t x = le_get(c->p, bytes);
        if (bytes == 1)
            ((int8_t *)values)[i] = (int8_t)x;
        else if (bytes == 2)
            ((int16_t *)values)[i] = (int16_t)x;
        else
            ((int32_t *)values)[i] = (int32_t)x;
    }
}

static void walk_body(struct nnue_net *net, unsigned char *p, bool write)
{
    struct cursor c = { p, write };
    int inputs = net->ft.view.nplayers * NNUE_HIDDEN;
    field(&c, net->ft.bias, NNUE_HIDDEN, 2);
    field(&c, net->ft.weight, net->ft.view.nfeatures * NNUE_HIDDEN, 2);
    field(&c, net->ft.psqt_weight, net->ft.view.nfeatures, 4);
    field(&c, net->l1_bias, NNUE_L1, 4);
    /* The file has the hidden layers' weights output by output. */
    for (int o = 0; o < NNUE_L1; o++)
        for (int i = 0; i < inputs; i++)
            field(&c, &net->l1_weight[i / NNUE_CHUNK][o][i % NNUE_CHUNK], 1, 1);
    field(&c, net->l2_bias, NNUE_L2, 4);
    for (int o = 0; o < NNUE_L2; o++)
        for (int i = 0; i < NNUE_L1; i++)
            field(&c, &net->l2_weight[i / NNUE_CHUNK][o][i % NNUE_CHUNK], 1, 1);
    field(&c, &net->out_bias, 1, 4);
    field(&c, net->out_weight, NNUE_L2, 2);
}

unsigned char *nnue_to_bytes(const struct nnue_net *net, size_t *len)
{
    *len = NNUE_HEADER + body_size(&net->ft.view) + 4;
    unsigned char *b = calloc(1, *len);
    if (!b)
        return NULL;
    memcpy(b, magic, 8);
    le_put(b + 8, NNUE_VERSION, 4);
    le_put(b + 12, net->fingerprint, 8);
    memcpy(b + 20, net->variant, strnlen(net->variant, NAME_LEN - 1));
    le_put(b + 52, (uint64_t)net->scale, 4);
    const struct feature_view *view = &net->ft.view;
    const int dims[] = { view->nplayers, view->ntypes, view->ncells, NNUE_HIDDEN, NNUE_L1, NNUE_L2 };
    for (int i = 0; i < 6; i++)
        le_put(b + 56 + 2 * i, (uint64_t)dims[i], 2);
    /* The walk only reads the net when writing. */
    walk_body((struct nnue_net *)net, b + NNUE_HEADER, true);
    le_put(b + *len - 4, crc32_of(b, *len - 4), 4);
    return b;
}

struct nnue_net *nnue_from_bytes(const unsigned char *b, size_t len, const struct variant *v, char *err, size_t errlen)
{
    if (len < NNUE_HEADER + 4 || memcmp(b, magic, 8)) {
        snprintf(err, errlen, "not a net file (no SNNUE header)");
        return NULL;
    }
    if (le_get(b + 8, 4) != NNUE_VERSION) {
        snprintf(err, errlen, "net format version %u, this engine reads %d", (unsigned)le_get(b + 8, 4), NNUE_VERSION);
        return NULL;
    }
    char name[NAME_LEN] = "";
    memcpy(name, b + 20, NAME_LEN - 1);
    for (char *s = name; *s; s++)
        if (*s < ' ' || *s > '~')
            *s = '?';
    if (!v && !(v = registry_find(name))) {
        snprintf(err, errlen, "a net for variant '%s', which this engine does not know", name);
        return NULL;
    }
    if (le_get(b + 12, 8) != v->fingerprint) {
        snprintf(err, errlen, "a net for variant '%s', not for %s (or for another definition of it)", name, v->name);
        return NULL;
    }
    struct feature_view view;
    nnue_view_init(&view, v);
    const int want[] = { view.nplayers, view.ntypes, view.ncells, NNUE_HIDDEN, NNUE_L1, NNUE_L2 };
    for (int i = 0; i < 6; i++)
        if ((int)le_get(b + 56 + 2 * i, 2) != want[i]) {
            snprintf(err, errlen, "architecture field %d is %d, this engine needs %d", i + 1,
                     (int)le_get(b + 56 + 2 * i, 2), want[i]);
            return NULL;
        }
    size_t size = NNUE_HEADER + body_size(&view) + 4;
    if (len != size) {
        snprintf(err, errlen, "%zu bytes, a net of this architecture has %zu (cut short or damaged)", len, size);
        return NULL;
    }
    if (le_get(b + len - 4, 4) != crc32_of(b, len - 4)) {
        snprintf(err, errlen, "checksum mismatch (damaged file)");
        return NULL;
    }
    int scale = (int)le_get(b + 52, 4);
    if (scale < 1 || scale > 10000) {
        snprintf(err, errlen, "output scale %d out of range 1..10000", scale);
        return NULL;
    }
    struct nnue_net *net = net_new(v);
    if (!net) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    net->scale = scale;
    walk_body(net, (unsigned char *)b + NNUE_HEADER, false);
    return net;
}

struct nnue_net *nnue_load(const char *path, const struct variant *v, char *err, size_t errlen)
{
    /* Bounded by the largest net, so a huge file is refused without reading it. */
    size_t cap = NNUE_HEADER + 4
                 + body_size(&(struct feature_view){
                     MAX_PLAYERS, MAX_TYPES, MAX_CELLS, MAX_PLAYERS * MAX_TYPES * MAX_CELLS, { { 0 } } });
    size_t len;
    unsigned char *b = (unsigned char *)file_read(path, cap, &len, err, errlen);
    if (!b)
        return NULL;
    char why[256];
    struct nnue_net *net = nnue_from_bytes(b, len, v, why, sizeof why);
    free(b);
    if (!net)
        snprintf(err, errlen, "%s: %s", path, why);
    return net;
}

struct nnue_net *nnue_random(const struct variant *v, uint64_t seed)
{
    struct nnue_net *net = net_new(v);
    if (!net)
        return NULL;
    net->scale = 400;
    for (int i = 0; i < net->ft.view.nfeatures * NNUE_HIDDEN; i++)
        net->ft.weight[i] = (int16_t)((int)(random_next(&seed) % 121) - 60);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft.bias[i] = (int16_t)(random_next(&seed) % 100);
    for (int i = 0; i < net->ft.view.nfeatures; i++)
        net->ft.psqt_weight[i] = (int32_t)(random_next(&seed) % 200001) - 100000;
    for (int o = 0; o < NNUE_L1; o++) {
        net->l1_bias[o] = (int32_t)(random_next(&seed) % 20001) - 10000;
        for (int i = 0; i < net->ft.view.nplayers * NNUE_HIDDEN; i++)
            net->l1_weight[i / NNUE_CHUNK][o][i % NNUE_CHUNK] = (int8_t)((int)(random_next(&seed) % 256) - 128);
    }
    for (int o = 0; o < NNUE_L2; o++) {
        net->l2_bias[o] = (int32_t)(random_next(&seed) % 20001) - 10000;
        for (int i = 0; i < NNUE_L1; i++)
            net->l2_weight[i / NNUE_CHUNK][o][i % NNUE_CHUNK] = (int8_t)((int)(random_next(&seed) % 256) - 128);
    }
    net->out_bias = (int32_t)(random_next(&seed) % 20001) - 10000;
    for (int i = 0; i < NNUE_L2; i++)
        net->out_weight[i] = (int16_t)((int)(random_next(&seed) % 4001) - 2000);
    return net;
}

int nnue_output(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS])
{
    int64_t others = 0;
    for (int p = 1; p < net->ft.view.nplayers; p++)
        others += acc[p]->psqt;
    int64_t out = net->out_bias + acc[0]->psqt - others / (net->ft.view.nplayers - 1) + net->forward(net, acc);
    return (int)(out * net->scale / (NNUE_QA * NNUE_QO));
}

/* Embedded nets, parsed on first use for a definition (its fingerprint) and kept to the end: a cache
 * that every thread's games share. */
static pthread_mutex_t shipped_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    uint64_t fingerprint;
    bool tried;
    struct nnue_net *net;
} shipped_cache[MAX_VARIANTS];

const struct variant *nnue_choice_add_file(struct nnue_choice *c, const char *path, char *err, size_t errlen)
{
    if (strlen(path) >= sizeof c->file[0].path) {
        snprintf(err, errlen, "%.100s...: path too long", path);
        return NULL;
    }
    struct nnue_net *net = nnue_load(path, NULL, err, errlen);
    if (!net)
        return NULL;
    int i = 0;
    while (i < c->nfiles && c->file[i].net->fingerprint != net->fingerprint)
        i++;
    if (i == MAX_VARIANTS) {
        nnue_free(net);
        snprintf(err, errlen, "%s: no room for another net", path);
        return NULL;
    }
    if (i == c->nfiles)
        c->nfiles++;
    else
        nnue_free(c->file[i].net);
    c->file[i].net = net;
    snprintf(c->file[i].path, sizeof c->file[i].path, "%s", path);
    return registry_find(net->variant);
}

void nnue_choice_clear(struct nnue_choice *c)
{
    for (int i = 0; i < c->nfiles; i++)
        nnue_free(c->file[i].net);
    c->nfiles = 0;
}

static const struct nnue_net *shipped_cached(int i, const struct variant *v)
{
    for (int k = 0; k < MAX_VARIANTS; k++) {
        if (shipped_cache[k].tried && shipped_cache[k].fingerprint == v->fingerprint)
            return shipped_cache[k].net;
        if (!shipped_cache[k].tried) {
            char err[256];
            /* A user's definition under a built-in name has another fingerprint: no net. */
            shipped_cache[k].net = nnue_from_bytes(nnue_embedded[i].data, nnue_embedded[i].len, v, err, sizeof err);
            shipped_cache[k].fingerprint = v->fingerprint;
            shipped_cache[k].tried = true;
            return shipped_cache[k].net;
        }
    }
    return NULL;
}

static const struct nnue_net *shipped(const struct variant *v, const char **source)
{
    for (int i = 0; i < MAX_VARIANTS && nnue_embedded[i].name; i++) {
        if (strcmp(nnue_embedded[i].name, v->name))
            continue;
        *source = nnue_embedded[i].path;
        pthread_mutex_lock(&shipped_lock);
        const struct nnue_net *net = shipped_cached(i, v);
        pthread_mutex_unlock(&shipped_lock);
        return net;
    }
    return NULL;
}

static const struct nnue_net *net_for(const struct nnue_choice *c, const struct variant *v, const char **source)
{
    *source = "";
    if (!c || !c->use)
        return NULL;
    for (int i = 0; i < c->nfiles; i++)
        if (c->file[i].net->fingerprint == v->fingerprint) {
            *source = c->file[i].path;
            return c->file[i].net;
        }
    return shipped(v, source);
}

const struct nnue_net *nnue_choice_for(const struct nnue_choice *c, const struct variant *v)
{
    const char *source;
    return net_for(c, v, &source);
}

void nnue_describe(const struct nnue_choice *c, const struct variant *v, char *out, size_t len)
{
    const char *source;
    const struct nnue_net *net = net_for(c, v, &source);
    if (net)
        snprintf(out, len, "NNUE %s (%s)", source, net->variant);
    else
        snprintf(out, len, "classical (%s)", c && c->use ? "no net for this variant" : "UseNNUE is off");
}
