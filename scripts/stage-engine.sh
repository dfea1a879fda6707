#!/usr/bin/env bash
# Trunk post-build hook: puts the engine (citelens-wasm through wasm-bindgen --target web, wasm-opt'd),
# the shipped model, pdf.js and the paper examples into the staging folder beside the app.
set -euo pipefail
cd "${TRUNK_SOURCE_DIR:-$(dirname "$0")/..}"
staging="${TRUNK_STAGING_DIR:?run by trunk}"
out="$staging/citelens"
cargo build --profile wasm --target wasm32-unknown-unknown -p citelens-wasm
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir "$out/pkg" target/wasm32-unknown-unknown/wasm/citelens_wasm.wasm
# npm's wasm-opt is binaryen compiled to JS: over 5 minutes on this 20 MB module for a few percent, so opt-in.
if [ "${CITELENS_ENGINE_WASM_OPT:-0}" = 1 ] && command -v wasm-opt >/dev/null; then
  wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$out/pkg/citelens_wasm_bg.wasm" -o "$out/pkg/citelens_wasm_bg.wasm"
fi
# pdf.js for PDFs given to the demo as long documents (www/citelens/doc-text.js loads it on demand).
pdfjs=node_modules/pdfjs-dist
[ -f "$pdfjs/build/pdf.min.mjs" ] || { echo "stage-engine: $pdfjs is missing: run scripts/setup-web.sh (npm ci)" >&2; exit 1; }
mkdir -p "$out/pdfjs"
cp "$pdfjs/build/pdf.min.mjs" "$pdfjs/build/pdf.worker.min.mjs" "$pdfjs/LICENSE" "$out/pdfjs/"
mkdir -p "$out/model"
cp models/citelens-nli-minilm/model.onnx models/citelens-nli-minilm/tokenizer.json models/citelens-nli-minilm/config.json "$out/model/"
# The paper examples are data, not code: copied from the data folder at build time, never committed.
data="${CITELENS_DATA_DIR:-../shared/data}"
if [ -f "$data/paper_examples/paper_examples.jsonl" ]; then
  python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1]) if l.strip()]))' \
    "$data/paper_examples/paper_examples.jsonl" > "$staging/examples.json"
else
  echo "stage-engine: no paper examples under $data; the demo's example menu will say so" >&2
fi
# The "generated examples" menu: the CAQA generator's test split (150 examples, each with passage and
# with triple citations), generated from the knowledge graph at build time like the paper examples.
kg="$data/kg/fb15k237"
if [ -d "$kg" ]; then
  cli=""
  for c in target/release/citelens target/debug/citelens; do [ -x "$c" ] && { cli="$c"; break; }; done
  if [ -z "$cli" ]; then cargo build --bin citelens; cli=target/debug/citelens; fi
  "$cli" generate caqa --kg "$kg" --seed 7 --count 150 --split test --citations both --out "$staging/generated.jsonl" >/dev/null
  python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1]) if l.strip()]))' \
    "$staging/generated.jsonl" > "$staging/generated.json"
  rm "$staging/generated.jsonl"
else
  echo "stage-engine: no knowledge graph under $kg; the demo's generated-examples menu will say so" >&2
fi
# Gzipped twins of the site's files for hosts that serve them (scripts/serve.mjs, nginx gzip_static):
# what a first visit downloads over the wire.
bash scripts/precompress.sh "$staging"
