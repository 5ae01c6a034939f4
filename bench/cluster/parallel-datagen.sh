#!/bin/sh
# Training data (sennight datagen) cut into shards run by GNU Parallel, locally (-j) or on other
# machines (--sshlogin): bench/cluster/README.md.
#
#   SHARDS=400 JOBS=2 OUT=fh-data bench/cluster/parallel-datagen.sh ./sennight \
#       --variant full-house --games 1700000 --seed 12
#
# SHARDS (default 2) shards, JOBS (default SHARDS) at a time on this machine; SSHLOGIN (parallel's
# --sshlogin list) runs them on those machines instead, each with the repository at the same path as
# here. Shard K writes OUT/shard-K.bin and OUT/shard-K.log (OUT defaults to datagen-shards); the
# shards' files in order go to OUT/shards.txt, so `cat $(cat OUT/shards.txt)` is the unsharded
# file byte for byte. A shard whose file exists is not played again (a stopped run resumes where it
# stopped), if the arguments are the run's (kept in OUT/arguments); others are refused.
set -eu

if [ "${1:-}" = --shard-job ]; then
    # One shard, as parallel runs it: its records and its log in OUT, skipped once written.
    k=$2 shards=$3 out=$4 sennight=$5
    shift 5
    [ -f "$out/shard-$k.bin" ] && exit 0
    exec "$sennight" datagen "$@" --shard "$k/$shards" --out "$out/shard-$k.bin" >"$out/shard-$k.log" 2>&1
fi

if [ $# -lt 2 ]; then
    echo "usage: [SHARDS=n] [JOBS=n] [SSHLOGIN=list] [OUT=dir] $0 <sennight> <datagen arguments>" >&2
    exit 2
fi
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
sennight=$1
shift
shards=${SHARDS:-2}
out=${OUT:-datagen-shards}
script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
mkdir -p "$out"
# The shards already written belong to the run only if they were made with the same arguments.
arguments=$(printf '%s\n' "shards $shards" "$@")
if [ -f "$out/arguments" ] && [ "$(cat "$out/arguments")" != "$arguments" ]; then
    echo "$0: $out holds the shards of another run (see $out/arguments): remove it or choose another OUT" >&2
    exit 2
fi
printf '%s\n' "$arguments" >"$out/arguments"
seq 1 "$shards" | parallel --will-cite --halt now,fail=1 --sshlogin "${SSHLOGIN:-${JOBS:-$shards}/:}" \
    --workdir "$PWD" ${SSHLOGIN:+--return "$out/shard-{}.bin" --return "$out/shard-{}.log"} \
    -q "$script" --shard-job {} "$shards" "$out" "$sennight" "$@" || {
    status=$?
    echo "$0: a shard failed (status $status): see $out/shard-*.log" >&2
    exit "$status"
}
for k in $(seq 1 "$shards"); do
    echo "$out/shard-$k.bin"
done >"$out/shards.txt"
bytes=$(xargs stat -c %s <"$out/shards.txt" | awk '{ n += $1 } END { print n }')
echo "$out: $shards shards, $((bytes / 160)) positions; the file in order: cat \$(cat $out/shards.txt)"
