#!/usr/bin/env bash
# The browser model, end to end, in one command (issue 43):
#   bash training/multitask.sh
# 1. the engine's pairs (citelens pairs): citelens_synth train and dev (answers and claims), generated
#    CAQA train, ExpertQA's judged claims, Evidence Inference train and validation, WiCE token train;
# 2. the shipped weights read back from the shipped ONNX (training/from_onnx.py): the starting point;
# 3. every layer trained with the three heads (training/multitask.py);
# 4. one int8 ONNX file with the three outputs, exported into MODEL_DIR (default training/out_multitask/model:
#    not shipped yet, see MODEL.md; MODEL_DIR=models/citelens-nli-minilm FIXTURES=tests/fixtures ships it).
# About 80 minutes on 2 CPU cores. OUT (default training/out_multitask) holds the pairs and the run.
# GEN_COUNT (generated CAQA answers, two rows each) and MULTITASK_ARGS (more training/multitask.py options)
# size the run. SMOKE=1 runs every step on a few rows (CI's check of this code; the model is written to OUT only).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-training/out_multitask}"
DATA="${CITELENS_DATA_DIR:-../shared/data}"
MODEL_DIR="${MODEL_DIR:-training/out_multitask/model}"
SEED="${SEED:-7}"
start=$(date +%s)
stamp() { echo "[multitask] $1: $(( ($(date +%s) - start) / 60 )) min since start"; }
LIMIT=()
GEN_COUNT="${GEN_COUNT:-3000}"
if [ -n "${SMOKE:-}" ]; then
  LIMIT=(--limit 40)
  GEN_COUNT=20
  MODEL_DIR="$OUT/model"
fi

CL="${CITELENS_BIN:-target/release/citelens}"
[ -x "$CL" ] || { cargo build --release -p citelens-cli; CL=target/release/citelens; }
mkdir -p "$OUT/pairs" "$OUT/gen" "$OUT/synth" "$OUT/shipped"
python3 training/synth_cases.py --data "$DATA/citelens_synth" --out "$OUT/synth"
for split in train dev; do
  for kind in answers claims; do
    "$CL" pairs --dataset cases --sentence-pairs selected --input "$OUT/synth/${split}_$kind.jsonl" --out "$OUT/pairs/cases_${split}_$kind.jsonl" ${LIMIT[@]:+--limit 20}
  done
done
"$CL" generate caqa --kg "$DATA/kg/fb15k237" --seed "$SEED" --count "$GEN_COUNT" --split train --citations both --out "$OUT/gen/train.jsonl"
"$CL" pairs --dataset caqa --sentence-pairs selected --input "$OUT/gen/train.jsonl" --out "$OUT/pairs/caqa_train.jsonl"
for f in lfqa_rand_val lfqa_domain_val lfqa_rand_test; do
  "$CL" pairs --dataset expertqa --sentence-pairs selected --input "$DATA/attribution/expertqa/data_$f.jsonl" --out "$OUT/pairs/expertqa_train_$f.jsonl" ${LIMIT[@]:+--limit 20}
done
EI="$DATA/long_document/evidence_inference"
"$CL" pairs --dataset evidence-inference --input "$EI" --split train --out "$OUT/pairs/ei_train.jsonl" ${LIMIT[@]:+--limit 20}
"$CL" pairs --dataset evidence-inference --input "$EI" --split validation --out "$OUT/pairs/ei_validation.jsonl" ${LIMIT[@]:+--limit 20}
"$CL" pairs --dataset lab-wice --input "$DATA/attribution/wice/non_supported_tokens_train.jsonl" --out "$OUT/pairs/wice_train.jsonl" ${LIMIT[@]:+--limit 20}
stamp "pairs ready"

SHIPPED="${SHIPPED_ONNX:-models/citelens-nli-minilm/model.onnx}"
python3 training/from_onnx.py --onnx "$SHIPPED" --out "$OUT/shipped/model.pt" --evidence-out "$OUT/shipped/evidence"
python3 training/multitask.py --pairs "$OUT/pairs" --init "$OUT/shipped/model.pt" --evidence-init "$OUT/shipped/evidence/evidence.pt" \
  --data "$DATA" --out "$OUT" ${LIMIT[@]:+"${LIMIT[@]}" --eval-limit 40 --teacher 40} ${EPOCHS:+--epochs "$EPOCHS"} ${MULTITASK_ARGS:-}
stamp "trained"

python3 training/export.py --run "$OUT" --heads "$OUT" --model-dir "$MODEL_DIR" --fixtures "${FIXTURES:-$OUT/fixtures}"
stamp "exported to $MODEL_DIR"
