#!/bin/sh
# How often a lazy exit would be wrong, per variant and distance from the window: the data behind each
# weights file's lazy-margin (docs/eval.md, "Lazy margins"). Builds a copy of the committed tree whose
# search never exits lazily and counts, for every full evaluation whose early score lies d
# centipawns outside (alpha, beta), whether the full score lies on the other side of the bound; then
# runs the bench (optionally at another depth: bench/lazy_stats.sh 6) and prints one line per variant:
# wrong exits / evaluations in 25-cp bins from 100 to 400, and the smallest margin (a multiple of 25,
# at least 100) from which every bin is wrong less than 1 % of the time (a bin with no evaluation
# counts as right).
set -eu
depth=${1:-7}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive HEAD | tar -x -C "$tmp"
python3 - "$tmp/eval/width/eval.c" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
def swap(old, new):
    global s
    if s.count(old) != 1:
        sys.exit("lazy_stats.sh: the evaluation changed; update the patch in bench/lazy_stats.sh")
    s = s.replace(old, new)
# The lazy test goes, and the search's evaluation counts each full score against its early one.
swap("    if (!tr && eval_is_lazy(early, ev->p.lazy_margin, alpha, beta))\n",
     "    if (!tr && eval_is_lazy(early, 1 << 20, alpha, beta))\n")
swap("    int early = eval_blend(pos, &s, view, phase);\n",
     "    int early = eval_blend(pos, &s, view, phase);\n    lazy_stats_early = early;\n")
swap("    return evaluate_lazy(pos, settings, cache, memo, view, NULL, alpha, beta);\n",
     """    lazy_stats_early = INT_MIN;
    int score = evaluate_lazy(pos, settings, cache, memo, view, NULL, alpha, beta);
    if (lazy_stats_early != INT_MIN)
        lazy_stats_count(pos->v, lazy_stats_early, score, alpha, beta);
    return score;
""")
swap("EVAL_INLINE int evaluate_lazy(", """#include <limits.h>
#include <stdio.h>
enum { STATS_VARIANTS = 64, STATS_BINS = 12 };
static int lazy_stats_early;    /* the early score of the evaluation just made, INT_MIN for none */
static const struct variant *stats_variant[STATS_VARIANTS];
static long stats_seen[STATS_VARIANTS][STATS_BINS], stats_wrong[STATS_VARIANTS][STATS_BINS];
static void lazy_stats_count(const struct variant *v, int early, int score, int alpha, int beta)
{
    int i = 0;
    while (i < STATS_VARIANTS - 1 && stats_variant[i] && stats_variant[i] != v)
        i++;
    stats_variant[i] = v;
    int d = early >= beta ? early - beta : early <= alpha ? alpha - early : -1, bin = (d - 100) / 25;
    if (d < 100 || bin >= STATS_BINS)
        return;
    stats_seen[i][bin]++;
    stats_wrong[i][bin] += (early >= beta && score < beta) || (early <= alpha && score > alpha);
}
__attribute__((destructor)) static void lazy_stats_print(void)
{
    for (int i = 0; i < STATS_VARIANTS && stats_variant[i]; i++) {
        int margin = 100 + 25 * STATS_BINS;
        for (int b = STATS_BINS - 1; b >= 0 && (stats_wrong[i][b] * 100 < stats_seen[i][b] || !stats_seen[i][b]); b--)
            margin = 100 + 25 * b;
        fprintf(stderr, "%-22s margin %3d |", stats_variant[i]->name, margin);
        for (int b = 0; b < STATS_BINS; b++)
            fprintf(stderr, " %ld/%ld", stats_wrong[i][b], stats_seen[i][b]);
        fprintf(stderr, "\\n");
    }
}
EVAL_INLINE int evaluate_lazy(""")
open(p, "w").write(s)
PY
make -C "$tmp" --no-print-directory MODE=release PGO=0 build/release/sennight >/dev/null
echo "variant                margin | wrong/seen at 100, 125, ... 375 cp outside the window"
"$tmp/build/release/sennight" bench "$depth" 2>&1 >/dev/null
