#!/usr/bin/env bash
# The worker's `cuda` feature builds without a GPU (tract-cuda compiles its kernels at run time), and
# a worker asked for CUDA where no GPU is usable says so in one line and serves from the CPU. With a
# GPU and its driver, the same script checks that the worker reports the cuda backend.
#   bash scripts/test-worker-cuda.sh          (part of scripts/test.sh; the build takes a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p citelens-worker --features cuda --bin citelens-worker
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
key="cuda-test-key-$(date +%s%N)"
echo "$key" > "$work/keys.txt"
port=$((20000 + RANDOM % 12000)) # below the ephemeral range (32768 and up)
target/debug/citelens-worker --listen 127.0.0.1:$port --keys-file "$work/keys.txt" --backend cuda 2> "$work/log" &
pid=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/health/ready" > /dev/null && break; sleep 0.1; done
cat "$work/log"
backend=$(curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["backend"])')
if [ "$backend" = cpu ]; then
  [ "$(grep -c 'no usable GPU' "$work/log")" = 1 ] || { echo "test-worker-cuda: the CPU fallback must say why, once" >&2; exit 1; }
fi
curl -sf -H "Authorization: Bearer $key" -H 'content-type: application/json' \
  -d '{"pairs":[{"premise":"A man is playing a guitar on a stage.","hypothesis":"A man is playing music."}]}' \
  "http://127.0.0.1:$port/v1/nli" | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; assert r["entailment"] > 0.5, r; print("entailment", r["entailment"])'
echo "test-worker-cuda: ok (backend $backend)"
