#!/usr/bin/env bash
# Copies the engine the demo build staged into a package folder, as the extension and the npm package
# both ship it: the JS modules (www/citelens/*.js) and the assets beside them (the engine's wasm,
# the model, pdf.js), without the site's gzipped twins (scripts/precompress.sh: a package is
# compressed as a whole).
#   bash scripts/copy-engine.sh CALLER DEST     (CALLER names the script in error messages)
set -euo pipefail
cd "$(dirname "$0")/.."
caller="${1:?usage: scripts/copy-engine.sh CALLER DEST}"
dest="${2:?usage: scripts/copy-engine.sh CALLER DEST}"
src=dist/citelens
for f in "$src/pkg/citelens_wasm_bg.wasm" "$src/model/model.onnx" "$src/pdfjs/pdf.min.mjs"; do
  [ -f "$f" ] || { echo "$caller: $f is missing: run \`trunk build --release\` first" >&2; exit 1; }
done
mkdir -p "$dest"
cp www/citelens/*.js "$dest/"
cp -r "$src/pkg" "$src/model" "$src/pdfjs" "$dest/"
find "$dest" -name '*.gz' -delete
