#!/usr/bin/env bash
# Builds the browser extension (issue 14) from extension/ and the engine the demo build staged:
#   bash scripts/build-extension.sh      -> dist-extension/ (load unpacked) and dist-extension.zip
# Needs dist/ (`trunk build --release`: the engine's wasm, the model, pdf.js) and node_modules
# (@mozilla/readability). The packaged engine is the same code as the demo's: www/citelens/*.js.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT_DIR:-dist-extension}
readability=node_modules/@mozilla/readability/Readability.js
[ -f "$readability" ] || { echo "build-extension: $readability is missing: run scripts/setup-web.sh (npm ci)" >&2; exit 1; }
rm -rf "$out" "$out.zip"
mkdir -p "$out/vendor"
cp -r extension/. "$out/"
bash scripts/copy-engine.sh build-extension "$out/citelens"
cp "$readability" "$out/vendor/Readability.js"
cp node_modules/@mozilla/readability/LICENSE.md "$out/vendor/Readability.LICENSE.md"
# No remote code: every script the extension loads is one of its files.
if grep -rEl "https?://[^\"' ]+\.(m?js)(\"|')" "$out"/*.html "$out"/*.js "$out/content" 2>/dev/null; then
  echo "build-extension: a script is loaded from the network" >&2; exit 1
fi
(cd "$out" && python3 -c '
import os, zipfile
with zipfile.ZipFile("../'"$out"'.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk("."):
        for f in sorted(files):
            p = os.path.join(root, f)
            z.write(p, os.path.relpath(p, "."))
')
echo "build-extension: $out/ ($(du -sh "$out" | cut -f1)), $out.zip ($(du -h "$out.zip" | cut -f1))"
