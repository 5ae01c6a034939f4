/* The option tables of the sub-commands (util/args.h): each kind of value, and each mistake as one
 * line. */
#include <stddef.h>
#include <string.h>

#include "../util/args.h"
#include "tests.h"

enum { MODE_A = 1, MODE_B = 2 };

struct sample {
    const char *name, *files[2];
    int nfiles, count, colour;
    long long big;
    double ratio;
    bool quick;
    char label[8];
    struct arg_words engine[2], group, words;
    int nengines;
};

static const char *const colours[] = { "red", "green", "blue", NULL };

static const struct arg_option options[] = {
    { .name = "--name", .kind = ARG_TEXT, .at = offsetof(struct sample, name) },
    { .name = "--file", .kind = ARG_TEXT, .at = offsetof(struct sample, files), .repeat = 2,
      .count_at = offsetof(struct sample, nfiles) },
    { .name = "--count", .kind = ARG_INT, .at = offsetof(struct sample, count), .lo = 1, .hi = 100 },
    { .name = "--big", .kind = ARG_LONG, .at = offsetof(struct sample, big), .lo = 0, .hi = 1000000000000LL,
      .modes = MODE_B },
    { .name = "--ratio", .kind = ARG_REAL, .at = offsetof(struct sample, ratio), .rlo = 0, .rhi = 1 },
    { .name = "--colour", .kind = ARG_CHOICE, .at = offsetof(struct sample, colour), .choices = colours },
    { .name = "--quick", .kind = ARG_SET, .at = offsetof(struct sample, quick), .lo = 1 },
    { .name = "--slow", .kind = ARG_SET, .at = offsetof(struct sample, quick), .lo = 0 },
    { .name = "--label", .kind = ARG_BUFFER, .at = offsetof(struct sample, label), .size = 8 },
    { .name = "-engine", .kind = ARG_WORDS, .at = offsetof(struct sample, engine), .repeat = 2,
      .count_at = offsetof(struct sample, nengines) },
    { .name = "-group", .kind = ARG_WORDS, .at = offsetof(struct sample, group) },
};

static const struct arg_table with_words = ARG_TABLE(options, true, offsetof(struct sample, words));
static const struct arg_table without_words = ARG_TABLE(options, false, 0);

/* Parses the NULL-terminated arguments into *s from zero; the error line, "" when none. */
static const char *parse(const struct arg_table *t, unsigned mode, struct sample *s, const char **argv)
{
    static char err[256];
    int argc = 0;
    while (argv[argc])
        argc++;
    *s = (struct sample){ .count = 7 };
    err[0] = 0;
    uint64_t given = 0;
    bool ok = args_parse(t, s, mode, argc, (char **)argv, &given, err, sizeof err);
    ck_assert_msg(ok == !err[0], "args_parse said %d with error '%s'", ok, err);
    return err;
}

START_TEST(test_every_kind)
{
    struct sample s;
    const char *argv[] = { "--name", "x", "--count", "42", "--big", "1000000000000", "--ratio", "0.25", "--colour",
                           "blue", "--quick", "--label", "seven..", "word", "-", "--file", "a", "--file", "b",
                           "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "-group", "k=1", "-group", "k=2", NULL };
    ck_assert_str_eq(parse(&with_words, MODE_B, &s, argv), "");
    ck_assert_str_eq(s.name, "x");
    ck_assert_int_eq(s.count, 42);
    ck_assert(s.big == 1000000000000LL);
    ck_assert(s.ratio == 0.25);
    ck_assert_int_eq(s.colour, 2);
    ck_assert(s.quick);
    ck_assert_str_eq(s.label, "seven..");
    /* A lone '-' is a word (a FEN's empty field). */
    ck_assert_int_eq(s.words.n, 2);
    ck_assert_str_eq(s.words.word[1], "-");
    ck_assert_int_eq(s.nfiles, 2);
    ck_assert_str_eq(s.files[1], "b");
    ck_assert_int_eq(s.nengines, 2);
    ck_assert_int_eq(s.engine[0].n, 2);
    ck_assert_str_eq(s.engine[1].word[0], "cmd=b");
    /* An option of words given twice adds up. */
    ck_assert_int_eq(s.group.n, 2);
    const char *later[] = { "--quick", "--slow", "--count", "3", "--count", "4", NULL };
    ck_assert_str_eq(parse(&with_words, MODE_A, &s, later), "");
    ck_assert(!s.quick);
    ck_assert_int_eq(s.count, 4);
}
END_TEST

START_TEST(test_given)
{
    struct sample s = { 0 };
    const char *argv[] = { "--count", "5", "--quick", NULL };
    uint64_t given = 0;
    char err[128];
    ck_assert(args_parse(&without_words, &s, 0, 3, (char **)argv, &given, err, sizeof err));
    ck_assert(args_given(&without_words, given, "--count") && args_given(&without_words, given, "--quick"));
    ck_assert(!args_given(&without_words, given, "--name") && !args_given(&without_words, given, "--nothing"));
}
END_TEST

/* Each mistake: one line naming the option and the value, nothing more. */
START_TEST(test_mistakes)
{
    static const struct {
        const char *argv[8];
        const char *err;
    } cases[] = {
        { { "--bogus", NULL }, "unknown option '--bogus'" },
        { { "-x", NULL }, "unknown option '-x'" },
        { { "--count", NULL }, "--count needs a value" },
        { { "--count", "0", NULL }, "--count: a number from 1 to 100 is expected, not '0'" },
        { { "--count", "12x", NULL }, "--count: a number from 1 to 100 is expected, not '12x'" },
        { { "--count", "", NULL }, "--count: a number from 1 to 100 is expected, not ''" },
        { { "--big", "99999999999999999999", NULL },
          "--big: a number from 0 to 1000000000000 is expected, not '99999999999999999999'" },
        { { "--ratio", "1.5", NULL }, "--ratio: a number from 0 to 1 is expected, not '1.5'" },
        { { "--ratio", "nan", NULL }, "--ratio: a number from 0 to 1 is expected, not 'nan'" },
        { { "--colour", "pink", NULL }, "--colour: red, green or blue is expected, not 'pink'" },
        { { "--label", "eight...", NULL }, "--label: at most 7 characters, not 8" },
        { { "--file", "a", "--file", "b", "--file", "c", NULL }, "at most 2 --file" },
        { { "-engine", "-engine", "-engine", NULL }, "at most 2 -engine" },
    };
    struct sample s;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(parse(&with_words, MODE_B, &s, (const char **)cases[i].argv), cases[i].err);
    const char *other_mode[] = { "--big", "1", NULL };
    ck_assert_str_eq(parse(&with_words, MODE_A, &s, other_mode), "--big does not go with this command");
    const char *word[] = { "--count", "3", "stray", NULL };
    ck_assert_str_eq(parse(&without_words, 0, &s, word), "unknown option 'stray'");
    /* A refused value leaves the field as it was. */
    ck_assert_int_eq(s.count, 3);
}
END_TEST

Suite *suite_args(void)
{
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("args");
    tcase_add_test(tc, test_every_kind);
    tcase_add_test(tc, test_given);
    tcase_add_test(tc, test_mistakes);
    suite_add_tcase(s, tc);
    return s;
}
