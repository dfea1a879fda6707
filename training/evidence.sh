#!/usr/bin/env bash
# The evidence head on the shipped encoder, end to end, in one command:
#   bash training/evidence.sh
# 1. the engine's round-one candidates (BM25 over each document, per claim) labelled by the annotated
#    evidence: Evidence Inference train articles, WiCE token-level train claims (citelens pairs), and
#    Evidence Inference validation for choosing the epoch;
# 2. the shipped weights, and its four-way branch, read back from the shipped ONNX (training/from_onnx.py);
# 3. train the branch (training/evidence.py; everything below it, the NLI head and the four-way head stay as they are);
# 4. export one int8 ONNX file with the three outputs into models/citelens-nli-minilm/.
# About 25 minutes on 2 CPU cores. OUT (default training/out_evidence) holds the pairs and the run.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-training/out_evidence}"
DATA="${CITELENS_DATA_DIR:-../shared/data}"
start=$(date +%s)
stamp() { echo "[evidence] $1: $(( ($(date +%s) - start) / 60 )) min since start"; }

cargo build --release --workspace
CL=target/release/citelens
mkdir -p "$OUT/pairs" "$OUT/shipped"
EI="$DATA/long_document/evidence_inference"
"$CL" pairs --dataset evidence-inference --input "$EI" --split train --out "$OUT/pairs/ei_train.jsonl"
"$CL" pairs --dataset evidence-inference --input "$EI" --split validation --out "$OUT/pairs/ei_validation.jsonl"
"$CL" pairs --dataset lab-wice --input "$DATA/attribution/wice/non_supported_tokens_train.jsonl" --out "$OUT/pairs/wice_train.jsonl"
stamp "pairs ready"

# The shipped model before this head: re-exporting these two gives its model.onnx byte for byte.
SHIPPED="${SHIPPED_ONNX:-models/citelens-nli-minilm/model.onnx}"
python3 training/from_onnx.py --onnx "$SHIPPED" --out "$OUT/shipped/model.pt" --fourway-out "$OUT/shipped/four"
python3 training/evidence.py --pairs "$OUT/pairs" --init "$OUT/shipped/model.pt" --out "$OUT"
stamp "branch trained"

# The NLI fixtures stay as they are: the NLI head's weights do not change.
python3 training/export.py --run "$OUT/shipped" --fourway "$OUT/shipped/four" --evidence "$OUT" --fixtures "$OUT/fixtures"
stamp "exported to models/citelens-nli-minilm"
