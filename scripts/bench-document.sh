#!/usr/bin/env bash
# Times a five-sentence answer against a 10,000-word document on this machine (issue 13's figure):
# natively (the CLI), then in Debian's Chromium through the JS API when dist/ is built:
#   bash scripts/bench-document.sh
# The document is Evidence Inference article PMC101395 (the answer's source, from ../shared/data; never
# committed) followed by the next articles by id, up to the paragraph that reaches 10,000 words.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${CITELENS_DATA_DIR:-../shared/data}"
TXT="$DATA/long_document/evidence_inference/txt_files"
OUT="${OUT:-target/bench-document}"
mkdir -p "$OUT"
python3 - "$TXT" "$OUT/doc10k.txt" <<'PY'
import sys
from pathlib import Path
src, out = Path(sys.argv[1]), Path(sys.argv[2])
files = sorted(src.glob("PMC*.txt"))
start = [f.name for f in files].index("PMC101395.txt")
paras, words = [], 0
for f in files[start:]:
    for p in f.read_text(encoding="utf-8").split("\n\n"):
        paras.append(p)
        words += len(p.split())
        if words >= 10000:
            break
    if words >= 10000:
        break
out.write_text("\n\n".join(paras), encoding="utf-8")
print(f"{out}: {words} words")
PY
cargo build --release -p citelens-cli
target/release/citelens doc-bench --document "$OUT/doc10k.txt" --answer tests/fixtures/long_document/answer_pmc101395.txt --runs "${RUNS:-3}"
if [ -f dist/index.html ]; then
  node scripts/bench-document-browser.mjs "$OUT/doc10k.txt" tests/fixtures/long_document/answer_pmc101395.txt "${RUNS:-3}"
else
  echo "no dist/: run \`trunk build --release\` for the browser figure" >&2
fi
