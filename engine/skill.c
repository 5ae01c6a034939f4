/* Weakened play: the level of an Elo, its depth, and the move it picks among the best lines. */
#include "skill.h"

#include "../util/random.h"

/* The noise is scaled by the lines' spread, held between these, so that equal lines still vary. */
enum { NOISE_MIN_CP = 20, PAWN_CP = 100 };

int skill_level(int elo)
{
    int level = (elo - SKILL_ELO_MIN) * SKILL_LEVELS / (SKILL_ELO_MAX - SKILL_ELO_MIN);
    return level < 0 ? 0 : level >= SKILL_LEVELS ? SKILL_LEVELS - 1 : level;
}

int skill_depth(int level)
{
    return 1 + level;
}

/* Each line gets a bonus that favours it by how much worse it is (so a weak player drifts toward
 * worse moves) plus random noise, both scaled by the weakness; the largest score plus bonus wins. */
int skill_pick(const int *scores, int n, int level, uint64_t *seed)
{
    int weakness = 120 - 2 * level, spread = scores[0] - scores[n - 1];
    int delta = spread < NOISE_MIN_CP ? NOISE_MIN_CP : spread < PAWN_CP ? spread : PAWN_CP, best = 0, best_value = 0;
    for (int i = 0; i < n; i++) {
        int push = (weakness * (scores[0] - scores[i]) + delta * (int)(random_next(seed) % (uint64_t)weakness)) / 128;
        int value = scores[i] + push;
        if (i == 0 || value > best_value)
            best = i, best_value = value;
    }
    return best;
}
