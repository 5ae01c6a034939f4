#!/bin/sh
# Remakes a shipped net (docs/nnue.md) from nothing: self-play data, features, training. Every step is
# seeded, so the same executable and the same options give the same data, and the trainer the same
# net (PyTorch on one thread). Usage, from the repository's root with ./sennight built:
#   eval/train/make-net.sh VARIANT [WORKDIR]
# The data is the engine's at the commit that made the shipped net (the commit message names it).
set -e
variant=${1:?usage: eval/train/make-net.sh VARIANT [WORKDIR]}
work=${2:-build/train}
engine=${SENNIGHT:-./sennight}
mkdir -p "$work"
# The options that made each shipped net.
case $variant in
glinski) games=4000 nodes=5000 seed=1 epochs=30 ;;
*) games=4000 nodes=5000 seed=1 epochs=30 ;;
esac
data="$work/$variant-s$seed.bin"
[ -f "$data" ] || "$engine" datagen --variant "$variant" --out "$data" --games $games --nodes $nodes --seed $seed
"$engine" datagen --features "$data" --out "$work/$variant-s$seed.feat"
/usr/bin/python3 eval/train/train.py "$work/$variant-s$seed.feat" --out "eval/nets/$variant.nnue" \
    --epochs $epochs --seed 1 --threads 1
