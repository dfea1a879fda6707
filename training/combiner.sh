#!/usr/bin/env bash
# The learned combiner for a model, in one command (issue 43):
#   bash training/combiner.sh [MODEL_DIR] [OUT] [COMBINER_OUT]
# 1. each sentence's features (citelens bench --features) on the citelens_synth train records the
#    model's sentence head never trained on (synth_cases.in_head_selection), and on dev;
# 2. training/combiner.py: logistic regression chosen by cross-validation on those train records, with
#    a flip priced in its cost matrix and at most MAX_FLIP_RATE % flips; the unsure level chosen on dev
#    answers (sure verdicts at least SURE_ACCURACY % right).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL="${1:-models/citelens-nli-minilm}"
OUT="${2:-target/combiner}"
DEST="${3:-crates/citelens-engine/data/combiner.json}"
DATA="${CITELENS_DATA_DIR:-../shared/data}"
CL="${CITELENS_BIN:-target/release/citelens}"
mkdir -p "$OUT"
python3 training/synth_cases.py --data "$DATA/citelens_synth" --out "$OUT/synth" >/dev/null
for set in train_head_selection_answers train_head_selection_claims dev_answers dev_claims; do
  "$CL" bench --dataset cases --input "$OUT/synth/$set.jsonl" --model "$MODEL" --decide rules \
    --score-cache "$OUT/$set.cache.jsonl" --features "$OUT/$set.features.jsonl" > "$OUT/$set.rules.txt"
  head -2 "$OUT/$set.rules.txt"
done
python3 training/combiner.py --train "$OUT/train_head_selection_answers.features.jsonl" "$OUT/train_head_selection_claims.features.jsonl" \
  --dev "$OUT/dev_answers.features.jsonl" "$OUT/dev_claims.features.jsonl" \
  --sure-accuracy "${SURE_ACCURACY:-85}" --max-flip-rate "${MAX_FLIP_RATE:-10}" --out "$DEST"
