#!/usr/bin/env bash
# Writes a gzipped twin (FILE.gz, gzip -9) beside each compressible file of a built site over 1 KB:
#   bash scripts/precompress.sh dist
# for hosts that send it to browsers accepting gzip (nginx `gzip_static on;`, scripts/serve.mjs). The
# engine's wasm shrinks about 3.8x this way (15.30 MB to 4.02 MB); the int8 model barely (29.42 MB to
# 26.65 MB). The originals stay, for hosts and clients without it. Run by scripts/stage-engine.sh.
set -euo pipefail
dir="${1:?usage: scripts/precompress.sh DIR}"
find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.mjs' -o -name '*.json' -o -name '*.onnx' -o -name '*.css' -o -name '*.html' \) -size +1k -print0 |
  while IFS= read -r -d '' f; do gzip -9 -n -k -f "$f"; done
