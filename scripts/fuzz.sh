#!/usr/bin/env bash
# Re-runs the fuzz targets that face the network (cargo-fuzz, nightly): the input document (JSON ->
# Input, caps) and the citation-marker parser. Seeds: fuzz/corpus/<target> (kept small, in the repo);
# what the fuzzer finds grows target/fuzz-corpus/<target>; a crash lands in fuzz/artifacts/<target>.
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 1800: 30 CPU-minutes each, one after the other)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-1800}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
for target in input_document markers; do
  mkdir -p "target/fuzz-corpus/$target"
  echo "== $target: $secs s"
  cargo +nightly fuzz run -O "$target" "target/fuzz-corpus/$target" "fuzz/corpus/$target" -- -max_total_time="$secs" -print_final_stats=1 2>&1 | grep -E "^(Done|stat::|#[0-9]+ +DONE)|panicked|SUMMARY|Test unit written" || true
done
ls fuzz/artifacts/*/crash-* 2>/dev/null && { echo "fuzz: crashes found (above)" >&2; exit 1; } || echo "fuzz: no crashes"
