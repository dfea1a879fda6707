#!/usr/bin/env bash
# Every report the engine writes on the data sets a redesign must not change, one JSON-lines file each,
# so that two builds can be compared byte for byte:
#
#   scripts/report-snapshot.sh /tmp/before            # the build before the change
#   scripts/report-snapshot.sh /tmp/after             # the build after it
#   diff -r /tmp/before /tmp/after && echo identical  # a redesign prints only "identical"
#
# The sets: the project's suite, the paper examples, the CAQA generator's test split (150 examples with
# passage and triple citations, as the demo's menu has them) and citelens_synth dev (answers and
# claims, with the rules and with the learned combiner). The model's answers are kept in score caches
# under target/snapshot/ (keyed by the pair's text, so a change that alters a pair scores it afresh),
# which makes every run after the first take seconds.
#
# CITELENS_CLI: the binary to run (default: target/release/citelens, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: scripts/report-snapshot.sh OUT_DIR}"
cli="${CITELENS_CLI:-target/release/citelens}"
[ -x "$cli" ] || cargo build --release -p citelens-cli
data="${CITELENS_DATA_DIR:-../shared/data}"
cache=target/snapshot
mkdir -p "$out" "$cache"

bench() { # NAME ARGS...: one data set's reports (and printed figures) into OUT_DIR/NAME.*
  local name="$1"
  shift
  "$cli" bench "$@" --score-cache "$cache/$name.cache.jsonl" --reports "$out/$name.reports.jsonl" > "$out/$name.figures.txt"
  # pairs/s and the time taken change from run to run; everything else is the engine's.
  sed -i -E '/pairs\/s|seconds|elapsed| ms\b/d' "$out/$name.figures.txt"
}

bench suite --dataset cases --input tests/fixtures/cases.jsonl
bench paper_examples --dataset caqa --input "$data/paper_examples/paper_examples.jsonl"
if [ -d "$data/kg/fb15k237" ]; then
  [ -f "$cache/caqa_test.jsonl" ] ||
    "$cli" generate caqa --kg "$data/kg/fb15k237" --seed 7 --count 150 --split test --citations both --out "$cache/caqa_test.jsonl" > /dev/null
  bench caqa_test --dataset caqa --input "$cache/caqa_test.jsonl"
fi
if [ -d "$data/citelens_synth" ]; then
  [ -f target/synth/dev_answers.jsonl ] || python3 training/synth_cases.py > /dev/null
  for set in dev_answers dev_claims; do
    bench "synth_$set" --dataset cases --input "target/synth/$set.jsonl"
    bench "synth_${set}_combiner" --dataset cases --decide combiner --input "target/synth/$set.jsonl"
  done
fi
echo "report-snapshot: $(ls "$out"/*.reports.jsonl | wc -l) report files in $out"
