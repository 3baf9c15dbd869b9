#!/usr/bin/env bash
# The training sweep as run on a lent 16-core machine: 8 runs side by side, 2 cores each.
# Usage: bash bench/device_sweep.sh MINUTES OUT_DIR
set -u
M=${1:-6}; OUT=${2:-runs/sweep}
python3 bench/train_seeds.py --seeds 0 1 2 3 4 --minutes "$M" --eval-games 2000 \
  --out "$OUT/default" > "$OUT.default.txt" 2>&1 &
python3 bench/train_seeds.py --seeds 0 --minutes "$M" --eval-games 2000 --first-core 10 \
  --set 'hidden=[128,128]' --out "$OUT/h128" > "$OUT.h128.txt" 2>&1 &
python3 bench/train_seeds.py --seeds 0 --minutes "$M" --eval-games 2000 --first-core 12 \
  --set 'vp_shaping=0' --out "$OUT/noshaping" > "$OUT.noshaping.txt" 2>&1 &
python3 bench/train_seeds.py --seeds 0 --minutes "$M" --eval-games 2000 --first-core 14 \
  --set 'bc_steps=0' --out "$OUT/nobc" > "$OUT.nobc.txt" 2>&1 &
wait
cat "$OUT".*.txt
