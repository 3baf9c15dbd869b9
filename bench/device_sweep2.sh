#!/usr/bin/env bash
# Second sweep (8 runs of 2 cores side by side): the default pool against a broader pool,
# 3 seeds each, plus two single changes. Usage: bash bench/device_sweep2.sh MINUTES OUT_DIR
set -u
M=${1:-7}; OUT=${2:-runs/sweep2}
BROAD='opponents={"Big Money Ultimate": 2, "Big Money": 1, "Double Witch": 1, "Militia": 0.5, "Smithy": 0.5, "self": 1}'
run() { python3 bench/train_seeds.py --minutes "$M" --eval-games 2000 \
  --opponents "Big Money" "Big Money Ultimate" "Double Witch" "$@"; }
run --seeds 0 1 2 --first-core 0 --out "$OUT/default" > "$OUT.default.txt" 2>&1 &
run --seeds 0 1 2 --first-core 6 --set "$BROAD" --out "$OUT/broad" > "$OUT.broad.txt" 2>&1 &
run --seeds 0 --first-core 12 --set 'ent_coef=0.003' --out "$OUT/ent" > "$OUT.ent.txt" 2>&1 &
run --seeds 0 --first-core 14 --set 'bc_steps=1000000' --out "$OUT/bc1m" > "$OUT.bc1m.txt" 2>&1 &
wait
cat "$OUT".*.txt
