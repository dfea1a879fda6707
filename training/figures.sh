#!/usr/bin/env bash
# Every yardstick issue 43 names, for one model folder, through the product path (release CLI):
#   bash training/figures.sh [MODEL_DIR] [OUT]
# citelens_synth dev answers and claims (combiner, sentence head alone, rules), the paper examples,
# AttributionBench dev (first 500), the generated CAQA test split, MultiNLI mismatched / FEVER-symmetric /
# WiCE oracle chunks (training/evaluate.py), LAB on WiCE claim dev and Evidence Inference validation.
# Score caches in OUT make a second run (another combiner, another rule) take seconds.
# COMBINER=FILE measures that combiner file instead of the shipped one.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL="${1:-models/citelens-nli-minilm}"
OUT="${2:-target/figures}"
DATA="${CITELENS_DATA_DIR:-../shared/data}"
CL="${CITELENS_BIN:-target/release/citelens}"
mkdir -p "$OUT"
# Each command's whole output goes to OUT/NAME.txt and its first N lines to the screen (a pipe into
# `head` would close early and cut the command off).
show() { local name="$1" n="$2"; shift 2; "$@" > "$OUT/$name.txt"; head -n "$n" "$OUT/$name.txt"; }
COMB=()
[ -n "${COMBINER:-}" ] && COMB=(--combiner "$COMBINER")
python3 training/synth_cases.py --data "$DATA/citelens_synth" --out "$OUT/synth" >/dev/null
for set in dev_answers dev_claims; do
  for decide in combiner model rules; do
    echo "== citelens_synth $set, --decide $decide"
    show "$set.$decide" 12 "$CL" bench --dataset cases --input "$OUT/synth/$set.jsonl" --model "$MODEL" --decide "$decide" \
      ${COMB[@]:+"${COMB[@]}"} --score-cache "$OUT/$set.cache.jsonl"
  done
done
echo "== paper examples"
show paper_examples 4 "$CL" bench --dataset caqa --input "$DATA/paper_examples/paper_examples.jsonl" --model "$MODEL" ${COMB[@]:+"${COMB[@]}"}
echo "== AttributionBench dev, first 500"
show attributionbench 4 "$CL" bench --dataset attributionbench --input "$DATA/attribution/attributionbench/dev.jsonl" --limit 500 --model "$MODEL" \
  ${COMB[@]:+"${COMB[@]}"} --score-cache "$OUT/attributionbench.cache.jsonl"
echo "== generated CAQA test split (seed 7, 400 x 2)"
[ -f "$OUT/caqa_test.jsonl" ] || "$CL" generate caqa --kg "$DATA/kg/fb15k237" --seed 7 --count 400 --split test --citations both --out "$OUT/caqa_test.jsonl"
show caqa_test 4 "$CL" bench --dataset caqa --input "$OUT/caqa_test.jsonl" --model "$MODEL" ${COMB[@]:+"${COMB[@]}"} --score-cache "$OUT/caqa_test.cache.jsonl"
echo "== NLI: MultiNLI mismatched, FEVER-symmetric, WiCE oracle chunks (training/evaluate.py)"
python3 training/evaluate.py --model "$MODEL" --bin "$CL" --out "$OUT/eval.json"
echo "== LAB: WiCE claim dev"
show lab_wice 6 "$CL" bench --dataset lab-wice --input "$DATA/attribution/wice/claim_dev.jsonl" --model "$MODEL" --score-cache "$OUT/lab_wice.cache.jsonl"
echo "== LAB: Evidence Inference validation"
show ei_validation 6 "$CL" bench --dataset evidence-inference --input "$DATA/long_document/evidence_inference" --split validation --model "$MODEL" \
  --score-cache "$OUT/ei_validation.cache.jsonl"
