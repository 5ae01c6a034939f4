/* Weakened play for UCI_LimitStrength / UCI_Elo: a shallow search of several lines, then a move
 * picked with a random error that grows as the strength falls (in the manner of Stockfish's Skill
 * Level). The Elo scale is a dial, not a measured rating (docs/engine.md). */
#ifndef SKILL_H
#define SKILL_H

#include <stdint.h>

#include "engine.h"

enum { SKILL_LEVELS = 20, SKILL_MULTIPV = 4 };

/* The level 0..SKILL_LEVELS - 1 of an Elo in SKILL_ELO_MIN..SKILL_ELO_MAX (engine.h). */
int skill_level(int elo);
/* The deepest iteration a weakened search completes. */
int skill_depth(int level);
/* Which of n lines, sorted best first with these scores, a player of the level plays. */
int skill_pick(const int *scores, int n, int level, uint64_t *seed);

#endif
