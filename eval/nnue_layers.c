/* The net's layers after the accumulators (docs/nnue.md): the input transform, the two hidden layers
 * and the output's sum, by portable loops and by AVX2, which give the same integers. */
#include <stdalign.h>
#include <string.h>

#include "nnue.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* A hidden layer's clipped ReLU: the sum / NNUE_QB within [0, NNUE_QA]. */
static uint8_t clip(int32_t x)
{
    return (uint8_t)(x <= 0 ? 0 : x / NNUE_QB >= NNUE_QA ? NNUE_QA : x / NNUE_QB);
}

/* A hidden layer of nout outputs over n inputs (a multiple of NNUE_CHUNK), its weights by chunk as in
 * struct nnue_net. */
static void layer_portable(const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout, uint8_t *out)
{
    int32_t sum[NNUE_L2];
    memcpy(sum, bias, (size_t)nout * sizeof *sum);
    for (int c = 0; c < n; c += NNUE_CHUNK, w += nout * NNUE_CHUNK)
        for (int o = 0; o < nout; o++)
            for (int k = 0; k < NNUE_CHUNK; k++)
                sum[o] += in[c + k] * w[o * NNUE_CHUNK + k];
    for (int o = 0; o < nout; o++)
        out[o] = clip(sum[o]);
}

int32_t nnue_forward_portable(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS])
{
    uint8_t in[NNUE_MAX_INPUTS], h1[NNUE_L1], h2[NNUE_L2];
    int n = net->ft.view.nplayers * NNUE_HIDDEN;
    for (int i = 0; i < n; i++) {
        int x = acc[i / NNUE_HIDDEN]->v[i % NNUE_HIDDEN];
        in[i] = (uint8_t)(x < 0 ? 0 : x > NNUE_QA ? NNUE_QA : x);
    }
    layer_portable(in, n, &net->l1_weight[0][0][0], net->l1_bias, NNUE_L1, h1);
    layer_portable(h1, NNUE_L1, &net->l2_weight[0][0][0], net->l2_bias, NNUE_L2, h2);
    int32_t out = 0;
    for (int o = 0; o < NNUE_L2; o++)
        out += net->out_weight[o] * h2[o];
    return out;
}

#if defined(__x86_64__) || defined(__i386__)
#define AVX2 __attribute__((target("avx2")))

/* sum + one chunk's products for eight outputs: maddubs multiplies the broadcast four inputs by each
 * output's four weights and adds them in pairs, which cannot saturate (2 * 127 * 128 < 32768), so
 * the sums are exactly the portable ones; madd by ones adds the pairs into int32. */
AVX2 static inline __m256i chunk_add(__m256i sum, __m256i inputs, const int8_t *w)
{
    __m256i pairs = _mm256_maddubs_epi16(inputs, _mm256_loadu_si256((const __m256i *)w));
    return _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}

/* The four bytes at p, in every int32 lane. */
AVX2 static inline __m256i chunk_broadcast(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, sizeof x);
    return _mm256_set1_epi32(x);
}

/* The clipped ReLU of eight sums: for x > 0, x / NNUE_QB is x >> 6. */
AVX2 static inline __m256i clip8(__m256i x)
{
    _Static_assert(NNUE_QB == 64, "clip8 divides by a shift");
    __m256i q = _mm256_srli_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), 6);
    return _mm256_min_epi32(q, _mm256_set1_epi32(NNUE_QA));
}

AVX2 static int32_t forward_avx2(const struct nnue_net *net, const struct accumulator *const acc[MAX_PLAYERS])
{
    _Static_assert(NNUE_L1 == 16 && NNUE_L2 == 32 && NNUE_HIDDEN % 32 == 0, "forward_avx2's register layout");
    alignas(32) uint8_t in[NNUE_MAX_INPUTS];
    alignas(16) uint8_t h1[NNUE_L1];
    int n = net->ft.view.nplayers * NNUE_HIDDEN;
    /* Saturated to [0, 255] by packus, then to NNUE_QA; packus interleaves the 64-bit quarters of
     * its two sources, which the permutation puts back in order. */
    for (int i = 0; i < n; i += 32) {
        const int16_t *v = acc[i / NNUE_HIDDEN]->v + i % NNUE_HIDDEN;
        __m256i bytes = _mm256_packus_epi16(_mm256_loadu_si256((const __m256i *)v),
                                            _mm256_loadu_si256((const __m256i *)(v + 16)));
        bytes = _mm256_min_epu8(bytes, _mm256_set1_epi8(NNUE_QA));
        _mm256_store_si256((__m256i *)(in + i), _mm256_permute4x64_epi64(bytes, 0xD8));
    }
    /* The first layer: its 16 outputs in two registers, one chunk of inputs at a time. */
    __m256i lo = _mm256_loadu_si256((const __m256i *)net->l1_bias);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(net->l1_bias + 8));
#pragma GCC unroll 8
    for (int c = 0; c < n / NNUE_CHUNK; c++) {
        __m256i x = chunk_broadcast(in + NNUE_CHUNK * c);
        lo = chunk_add(lo, x, net->l1_weight[c][0]);
        hi = chunk_add(hi, x, net->l1_weight[c][8]);
    }
    /* To bytes: packs and packus interleave as above, outputs 0-3, 8-11, 4-7, 12-15; the shuffle
     * restores the order. */
    __m256i words = _mm256_packs_epi32(clip8(lo), clip8(hi));
    __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    _mm_store_si128((__m128i *)h1, _mm_shuffle_epi32(bytes, 0xD8));
    /* The second layer: 32 outputs in four registers. */
    __m256i h2[4];
    for (int j = 0; j < 4; j++)
        h2[j] = _mm256_loadu_si256((const __m256i *)(net->l2_bias + 8 * j));
    for (int c = 0; c < NNUE_L1 / NNUE_CHUNK; c++) {
        __m256i x = chunk_broadcast(h1 + NNUE_CHUNK * c);
        for (int j = 0; j < 4; j++)
            h2[j] = chunk_add(h2[j], x, net->l2_weight[c][8 * j]);
    }
    /* The output's weighted sum: at most 32 * 127 * 32768 in magnitude, within int32. */
    __m256i out = _mm256_setzero_si256();
    for (int j = 0; j < 4; j++) {
        __m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(net->out_weight + 8 * j)));
        out = _mm256_add_epi32(out, _mm256_mullo_epi32(clip8(h2[j]), w));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(out), _mm256_extracti128_si256(out, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

nnue_forward_fn nnue_forward_avx2(void)
{
    return __builtin_cpu_supports("avx2") ? forward_avx2 : NULL;
}
#else
nnue_forward_fn nnue_forward_avx2(void)
{
    return NULL;
}
#endif
