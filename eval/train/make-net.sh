#!/bin/sh
# Remakes a shipped net (docs/nnue.md) from nothing: self-play data, features, training. Every step is
# seeded: the same executable and options give the same data, and the trainer (one thread) the same
# net. Usage, from the repository's root with ./sennight built:
#   eval/train/make-net.sh VARIANT [WORKDIR]
# The data comes from the executable named in docs/nnue.md's table of shipped nets (SENNIGHT=...):
# another search or evaluation plays other games.
set -e
variant=${1:?usage: eval/train/make-net.sh VARIANT [WORKDIR]}
work=${2:-build/train}
engine=${SENNIGHT:-./sennight}
mkdir -p "$work"
# The options that made each shipped net; records: how many of the file's first records it saw (its
# first complete games), 0 for all; train: the trainer's options beyond the defaults. Full House's net
# came from two runs of two executables (docs/nnue.md has its commands).
train=''
case $variant in
glinski) games=4000 nodes=5000 seed=1 records=204422 epochs=12 ;;
mccooey) games=2000 nodes=5000 seed=1 records=69632 epochs=12 train="--init eval/nets/glinski.nnue --lr 3e-4" ;;
*) games=4000 nodes=5000 seed=1 records=0 epochs=12 ;;
esac
data="$work/$variant-s$seed.bin"
[ -f "$data" ] || "$engine" datagen --variant "$variant" --out "$data" --games $games --nodes $nodes --seed $seed
if [ "$records" -gt 0 ]; then
    head -c $((records * 160)) "$data" > "$work/$variant-train.bin"
else
    cp "$data" "$work/$variant-train.bin"
fi
"$engine" datagen --features "$work/$variant-train.bin" --out "$work/$variant-train.feat"
/usr/bin/python3 eval/train/train.py "$work/$variant-train.feat" --out "eval/nets/$variant.nnue" \
    --epochs $epochs --seed 1 --threads 1 $train
