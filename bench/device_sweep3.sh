#!/usr/bin/env bash
# Third sweep (8 runs of 2 cores side by side): "strongest" (the strongest library bot for each
# game's kingdom) in the opponent pool, and imitation of it. Usage: bash bench/device_sweep3.sh M OUT
set -u
M=${1:-7}; OUT=${2:-runs/sweep3}
POOL='opponents={"Big Money Ultimate": 2, "Big Money": 1, "strongest": 1, "self": 1}'
run() { python3 bench/train_seeds.py --minutes "$M" --eval-games 1000 \
  --opponents "Big Money Ultimate" "strongest" "$@"; }
run --seeds 0 --first-core 0 --out "$OUT/default" > "$OUT.default.txt" 2>&1 &
run --seeds 0 1 2 --first-core 2 --set "$POOL" --out "$OUT/pool" > "$OUT.pool.txt" 2>&1 &
run --seeds 0 1 --first-core 8 --set "$POOL" --set 'bc_expert="strongest"' \
  --set 'bc_steps=1500000' --set 'bc_epochs=4' --out "$OUT/bcs" > "$OUT.bcs.txt" 2>&1 &
run --seeds 0 --first-core 12 --set "$POOL" --set 'vp_shaping=0.05' --out "$OUT/pool_vp05" \
  > "$OUT.pool_vp05.txt" 2>&1 &
run --seeds 0 --first-core 14 --set 'num_envs=1024' --out "$OUT/env1024" > "$OUT.env1024.txt" 2>&1 &
wait
cat "$OUT".*.txt
