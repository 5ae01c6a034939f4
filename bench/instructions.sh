#!/bin/sh
# Instructions per node of the bench's searches, for this tree and a reference commit side by side,
# counted by callgrind: deterministic, so it holds on a loaded machine where nodes/s do not.
# Only the search threads are counted (callgrind collects inside pool's main_thread and dumps as each
# position's search ends), not start-up, position set-up or the hash clear between positions.
# -n: with the shipped nets (UCI option UseNNUE; the variants without one keep the classical evaluation).
usage() {
    echo "usage: bench/instructions.sh [-d depth] [-n] [-e engine] [-E reference-engine] [reference-commit]" >&2
    exit 2
}

depth=5
nnue=
engine=
ref_engine=
while getopts d:ne:E: opt; do
    case $opt in
    d) depth=$OPTARG ;;
    n) nnue=1 ;;
    e) engine=$OPTARG ;;
    E) ref_engine=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
case $depth in '' | *[!0-9]*) usage ;; esac
if [ "$depth" -lt 1 ] || [ "$depth" -gt 64 ] || { [ -n "$ref_engine" ] && [ $# -gt 0 ]; }; then
    usage
fi
command -v valgrind >/dev/null || { echo "bench/instructions.sh: valgrind is not installed" >&2; exit 1; }

top=$(git rev-parse --show-toplevel) || exit 1
cd "$top" || exit 1
# Valgrind cannot run AVX-512 code: both builds leave it out, and are plain -O3 builds (no PGO).
build_flags="MODE=release EXTRA_CFLAGS=-mno-avx512f"

if [ -z "$ref_engine" ]; then
    # The default reference is where this branch left main; on main itself, the commit before.
    if [ -n "$1" ]; then
        ref=$1
    else
        ref=$(git merge-base HEAD main 2>/dev/null)
        [ -n "$ref" ] && [ "$ref" != "$(git rev-parse HEAD)" ] || ref=HEAD~1
    fi
    sha=$(git rev-parse --verify --quiet "$ref^{commit}") || { echo "bench/instructions.sh: no commit $ref" >&2; exit 2; }
    ref_src=build/icount/ref-$sha
    if [ ! -f "$ref_src/Makefile" ]; then
        mkdir -p "$ref_src" && git archive "$sha" | tar -x -C "$ref_src" || exit 1
    fi
    echo "building the reference $(git log -1 --format='%h %s' "$sha")" >&2
    # shellcheck disable=SC2086
    make -s -j2 -C "$ref_src" $build_flags BUILD=build/icount build/icount/sennight >&2 || exit 1
    ref_engine=$ref_src/build/icount/sennight
    ref_name=$(git log -1 --format=%h "$sha")
else
    ref_name=$ref_engine
fi
if [ -z "$engine" ]; then
    echo "building this tree" >&2
    # shellcheck disable=SC2086
    make -s -j2 $build_flags BUILD=build/icount/tree build/icount/tree/sennight >&2 || exit 1
    engine=build/icount/tree/sennight
    tree_name="this tree ($(git describe --always --dirty))"
else
    tree_name=$engine
fi

tmp=$(mktemp -d /tmp/sennight-icount-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The nets are switched on through UCI, which every version of the engine reads (bench takes no option).
if [ -n "$nnue" ]; then
    printf 'setoption name UseNNUE value true\nbench %d\n' "$depth" >"$tmp/input"
    with=" with UseNNUE"
else
    : >"$tmp/input"
    with=
fi

# count ENGINE OUT: one line per bench position, "variant nodes instructions".
count() {
    echo "callgrind: $1 bench $depth$with" >&2
    out=$2
    if [ -n "$nnue" ]; then set -- "$1"; else set -- "$1" bench "$depth"; fi
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=main_thread --dump-after=main_thread \
        --dump-instr=no --callgrind-out-file="$tmp/cg" "$@" <"$tmp/input" >"$tmp/bench" 2>"$tmp/valgrind" || {
        echo "bench/instructions.sh: $1 bench $depth failed under valgrind:" >&2
        tail -5 "$tmp/valgrind" >&2
        exit 1
    }
    awk '$1 == "Position" { print $3, $4 }' "$tmp/bench" >"$tmp/nodes"
    n=$(wc -l <"$tmp/nodes")
    i=1
    : >"$tmp/instr"
    while [ "$i" -le "$n" ]; do
        sed -n 's/^summary: //p' "$tmp/cg.$i" >>"$tmp/instr" 2>/dev/null || break
        i=$((i + 1))
    done
    if [ "$n" -eq 0 ] || [ "$(wc -l <"$tmp/instr")" -ne "$n" ]; then
        echo "bench/instructions.sh: $1: $n bench positions but not one callgrind count for each" >&2
        exit 1
    fi
    paste -d ' ' "$tmp/nodes" "$tmp/instr" >"$out"
    rm -f "$tmp"/cg*
}
count "$engine" "$tmp/tree"
count "$ref_engine" "$tmp/ref"

echo "Instructions per node, bench depth $depth$with under callgrind: $tree_name against $ref_name"
awk -v depth="$depth" '
    function group(v) {
        if (v == "glinski") return "Glinski"
        if (v == "full-house") return "Full House"
        if (v ~ /^mishling/) return "Mishling family"
        if (v == "nd-mccooey-3p") return "nd-mccooey-3p"
        return ""
    }
    function add(side, g, nodes, instr) { n[side, g] += nodes; ir[side, g] += instr }
    FNR == 1 { side++ }
    {
        add(side, group($1), $2, $3)
        add(side, "whole bench", $2, $3)
    }
    function per(side, g) { return n[side, g] ? ir[side, g] / n[side, g] : 0 }
    END {
        split("Glinski|Full House|Mishling family|nd-mccooey-3p|whole bench", order, "|")
        printf "%-16s %10s %11s %10s %11s %8s\n", "group", "nodes", "instr/node", "ref nodes", "instr/node", "change"
        for (i = 1; i <= 5; i++) {
            g = order[i]
            if (!n[1, g] && !n[2, g]) continue
            a = per(1, g); b = per(2, g)
            printf "%-16s %10d %11.0f %10d %11.0f %+7.1f%%\n", g, n[1, g], a, n[2, g], b, b ? 100 * (a - b) / b : 0
        }
    }' "$tmp/tree" "$tmp/ref"
