#!/bin/sh
# A match cut into shards run by GNU Parallel, locally (-j) or on other machines (--sshlogin), then
# scored together: bench/cluster/README.md.
#
#   SHARDS=8 JOBS=2 OUT=run1 bench/cluster/parallel-match.sh ./sennight <match arguments>
#
# SHARDS (default 2) shards, JOBS (default SHARDS) at a time on this machine; SSHLOGIN (parallel's
# --sshlogin list, e.g. "2/host1,2/host2") runs them on those machines instead, each with the
# repository at the same path as here. Shard K writes OUT/shard-K.pgn and OUT/shard-K.log (OUT
# defaults to match-shards); the merged report goes to stdout and OUT/results.txt. Without -seed in the
# arguments, every shard gets the same one, from the clock.
set -eu

if [ "${1:-}" = --shard-job ]; then
    # One shard, as parallel runs it: its records and its log in OUT.
    k=$2 shards=$3 out=$4 sennight=$5
    shift 5
    mkdir -p "$out"
    exec "$sennight" match "$@" --shard "$k/$shards" -pgnout "$out/shard-$k.pgn" >"$out/shard-$k.log" 2>&1
fi

if [ $# -lt 2 ]; then
    echo "usage: [SHARDS=n] [JOBS=n] [SSHLOGIN=list] [OUT=dir] $0 <sennight> <match arguments>" >&2
    exit 2
fi
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
sennight=$1
shift
# Every shard needs the run's -seed (it names the run in the records): one from the clock if none is given.
seeded=
for word in "$@"; do
    [ "$word" = -seed ] && seeded=1
done
[ -n "$seeded" ] || set -- "$@" -seed "$(date +%s)"
shards=${SHARDS:-2}
out=${OUT:-match-shards}
script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
mkdir -p "$out"
rm -f "$out"/shard-*.pgn "$out"/shard-*.log
# ":" is this machine, with JOBS at a time; -q quotes every word for the shell that runs the job, here
# or over ssh; --return brings a remote shard's files back.
seq 1 "$shards" | parallel --will-cite --halt now,fail=1 --sshlogin "${SSHLOGIN:-${JOBS:-$shards}/:}" \
    --workdir "$PWD" ${SSHLOGIN:+--return "$out/shard-{}.pgn" --return "$out/shard-{}.log"} \
    -q "$script" --shard-job {} "$shards" "$out" "$sennight" "$@" || {
    status=$?
    echo "$0: a shard failed (status $status): see $out/shard-*.log" >&2
    exit "$status"
}
"$sennight" match --results "$out"/shard-*.pgn ${RESULTS_ARGS:-} | tee "$out/results.txt"
