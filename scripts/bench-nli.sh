#!/usr/bin/env bash
# NLI latency per pair at 64 and 128 tokens: tract native (release) and tract in wasm32 (SIMD) under
# Node, same model, same machine, same run; prints both and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
model=models/citelens-nli-minilm
cargo build --release -q -p citelens-cli
native=$(target/release/citelens nli-bench --json --iters "${ITERS:-50}")
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
cargo build --profile wasm -q --target wasm32-unknown-unknown -p citelens-wasm
want=$(cargo metadata --format-version 1 --locked | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="wasm-bindgen"))')
if ! wasm-bindgen --version 2>/dev/null | grep -q " $want"; then
  cargo install wasm-bindgen-cli --version "$want"
fi
pkg=target/wasm-bench-pkg
wasm-bindgen --target nodejs --out-dir "$pkg" target/wasm32-unknown-unknown/wasm/citelens_wasm.wasm
wasm=$(node scripts/wasm-bench.cjs "$pkg" "$model" "${ITERS:-30}")
python3 - "$native" "$wasm" <<'PY'
import json, sys
n, w = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"model load: native {n['load_ms']:.0f} ms, wasm {w['load_ms']:.0f} ms")
print(f"{'tokens':>6} {'native b1':>10} {'wasm b1':>10} {'wasm/native':>12} {'native b16':>11} {'wasm b16':>10}   (ms per pair)")
for a, b in zip(n["lengths"], w["lengths"]):
    print(f"{a['tokens']:>6} {a['ms_per_pair_batch1']:>10.2f} {b['ms_per_pair_batch1']:>10.2f} "
          f"{b['ms_per_pair_batch1'] / a['ms_per_pair_batch1']:>11.2f}x {a['ms_per_pair_batched']:>11.2f} {b['ms_per_pair_batched']:>10.2f}")
print(f"({n['runtime']}; {w['runtime']})")
PY
