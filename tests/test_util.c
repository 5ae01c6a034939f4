/* Helpers shared by the test suites: the registry, test games, widths, scaled timeouts, directories. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../rules/registry.h"
#include "tests.h"

/* The user variant files of docs/examples, and the three-player and castling games of the tests, are
 * tested like the built-in games; each file is loaded once, which its first variant shows. */
static const struct {
    const char *path, *first_variant;
} example_files[] = {
    { "docs/examples/hex5-marshal.ini", "hex5-marshal" },
    { "docs/examples/cannon-hex.ini", "cannon-hex" },
    { "docs/examples/substitutes.ini", "substitute-racers" },
    { "tests/fixtures/three-player.ini", "tri-ep-ref" },
    { "tests/fixtures/castling.ini", "castle-nd" },
};

bool test_registry_init(char *err, size_t errlen)
{
    registry_set_validator(game_validate_variant);
    if (!registry_init(err, errlen))
        return false;
    for (size_t i = 0; i < sizeof example_files / sizeof *example_files; i++)
        if (!registry_find(example_files[i].first_variant)
            && registry_add_file(example_files[i].path, false, err, errlen) < 0)
            return false;
    return true;
}

const struct variant *test_variant(const char *name)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
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

bool test_wide_only(const struct variant *v)
{
    return instance_for(v, false)->bits > 128;
}

double test_timeout(double seconds)
{
    const char *scale = getenv("TEST_TIME_SCALE");
    return seconds * (scale ? atof(scale) : 1.0);
}

void test_dir_make(char dir[TEST_DIR_LEN], const char *name)
{
    snprintf(dir, TEST_DIR_LEN, "/tmp/sennight-%s-XXXXXX", name);
    if (!mkdtemp(dir))
        dir[0] = 0;
}

void test_dir_remove(char dir[TEST_DIR_LEN])
{
    DIR *d = dir[0] ? opendir(dir) : NULL;
    char path[512];
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    if (dir[0])
        rmdir(dir);
}
