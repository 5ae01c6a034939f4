#include <stdlib.h>
#include <string.h>

#include "../movegen/registry.h"
#include "tests.h"

const struct variant *test_variant(const char *name)
{
    char err[512];
    registry_set_validator(game_validate_variant);
    ck_assert_msg(registry_init(err, sizeof err), "%s", err);
    const struct variant *v = registry_find(name);
    ck_assert_msg(v != NULL, "no variant %s", name);
    return v;
}

void test_game(struct game *g, const char *variant, const char *fen, bool wide)
{
    char err[512];
    memset(g, 0, sizeof *g);
    ck_assert_msg(game_init(g, test_variant(variant), wide, err, sizeof err), "%s", err);
    if (fen)
        ck_assert_msg(game_set_position(g, fen, NULL, 0, err, sizeof err), "%s: %s", fen, err);
}

double test_timeout(double seconds)
{
    const char *scale = getenv("TEST_TIME_SCALE");
    return seconds * (scale ? atof(scale) : 1.0);
}
