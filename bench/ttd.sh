#!/bin/sh
# Time to depth: how much sooner the main thread completes a depth with more threads (docs/engine.md,
# "Time to depth"). Runs `ENGINE bench DEPTH 1` and `ENGINE bench DEPTH THREADS` for every engine,
# ROUNDS times, interleaved so that load from other jobs hits every run alike; bench searches each
# position from a cleared table, and its per-position milliseconds end when the main thread has
# completed the depth. Prints per position the median times and speed-up, and per engine the
# geometric mean and median speed-up over the positions, their spread over the rounds, the nodes
# searched with THREADS threads against one, and the main thread's nodes to the depth against one
# thread's (what the helpers saved it: a speed-up that the load of other jobs does not blur).
#
#   bench/ttd.sh [-d depth] [-t threads] [-r rounds] [-m hash_mb] [-k raw_file] engine [engine...]
set -eu

depth=7 threads=2 rounds=3 hash=16 raw=
usage() {
    echo "usage: bench/ttd.sh [-d depth] [-t threads] [-r rounds] [-m hash_mb] [-k raw_file] engine [engine...]" >&2
    exit 2
}
while getopts d:t:r:m:k: opt; do
    case $opt in
    d) depth=$OPTARG ;;
    t) threads=$OPTARG ;;
    r) rounds=$OPTARG ;;
    m) hash=$OPTARG ;;
    k) raw=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
for n in "$depth" "$threads" "$rounds" "$hash"; do
    case $n in '' | *[!0-9]*) usage ;; esac
done
for e in "$@"; do
    [ -x "$e" ] || { echo "bench/ttd.sh: $e: not an executable" >&2; exit 2; }
done

data=${raw:-$(mktemp)}
[ -n "$raw" ] || trap 'rm -f "$data"' EXIT
: >"$data"
r=1
while [ "$r" -le "$rounds" ]; do
    for e in "$@"; do
        for t in 1 "$threads"; do
            echo "round $r/$rounds, $e, $t thread(s), load $(cut -d' ' -f1 /proc/loadavg)" >&2
            # "Position  3/36 glinski   229980 nodes   781 ms  bestmove g1k4  main 150000" (main: with
            # more than one thread): one record per position.
            "$e" bench "$depth" "$t" "$hash" | awk -v e="$e" -v t="$t" -v r="$r" '
                $1 == "Position" { split($2, p, "/"); print e, t, r, p[1], $3, $4, $6, $10 == "main" ? $11 : $4 }' >>"$data"
        done
    done
    r=$((r + 1))
done

awk -v threads="$threads" -v rounds="$rounds" '
function median(a, n,    i, j, x) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# Positions under 1 ms (none at the usual depths) count as 1 ms, so that every ratio is defined.
function ms(x) { return x < 1 ? 1 : x }
{
    e = $1; t = $2 == 1 ? 1 : 2; r = $3; p = $4
    if (!(e in seen)) { seen[e] = 1; engines[++ne] = e }
    if (p > np) np = p
    name[p] = $5
    time[e, t, r, p] = $7
    nodes[e, t] += $6
    main[e, t, r, p] = $8
}
END {
    for (k = 1; k <= ne; k++) {
        e = engines[k]
        printf "%s: time to depth, ms (medians of %d rounds), 1 thread vs %d\n", e, rounds, threads
        for (p = 1; p <= np; p++) {
            for (r = 1; r <= rounds; r++) { a[r] = time[e, 1, r, p]; b[r] = time[e, 2, r, p] }
            m1 = median(a, rounds); m2 = median(b, rounds); s[p] = ms(m1) / ms(m2)
            for (r = 1; r <= rounds; r++) { a[r] = main[e, 1, r, p]; b[r] = main[e, 2, r, p] }
            n1 = median(a, rounds); n2 = median(b, rounds); x = n2 > 0 ? n1 / n2 : 1
            printf "  %2d %-22s %8d %8d  %5.2fx  main nodes %10d %10d  %5.2fx\n", p, name[p], m1, m2, s[p], n1, n2, x
            lsum += log(s[p]); nsum += log(x)
        }
        geo = exp(lsum / np); lsum = 0; mgeo = exp(nsum / np); nsum = 0
        lo = 1e9; hi = 0
        for (r = 1; r <= rounds; r++) {
            x = 0
            for (p = 1; p <= np; p++) x += log(ms(time[e, 1, r, p]) / ms(time[e, 2, r, p]))
            x = exp(x / np); if (x < lo) lo = x; if (x > hi) hi = x
        }
        printf "  speed-up: geometric mean %.3fx (rounds %.3f..%.3f), median %.3fx; nodes %d threads / 1: %.3f\n",
               geo, lo, hi, median(s, np), threads, nodes[e, 2] / nodes[e, 1]
        printf "  main thread'"'"'s nodes to the depth, 1 thread / %d: geometric mean %.3fx\n\n", threads, mgeo
    }
    if (ne < 2) exit
    # The first engine is the reference: each other engine'"'"'s time with the same thread count.
    for (k = 2; k <= ne; k++)
        for (t = 1; t <= 2; t++) {
            lsum = 0
            for (p = 1; p <= np; p++) {
                for (r = 1; r <= rounds; r++) { a[r] = time[engines[1], t, r, p]; b[r] = time[engines[k], t, r, p] }
                lsum += log(ms(median(a, rounds)) / ms(median(b, rounds)))
            }
            printf "%s vs %s, %d thread(s): %.3fx as fast (geometric mean over positions)\n", engines[k], engines[1],
                   t == 1 ? 1 : threads, exp(lsum / np)
        }
}' "$data"
