#!/usr/bin/env bash
# Do onnxruntime and tract give the same answers? The same 1,000 pairs through `citelens nli` under
# tract, onnxruntime (fp32 products, the default) and onnxruntime --ort-int8 (its int8 kernels), for each
# model directory given (default: the shipped model); prints, per model and mode, how many labels
# agree and how far the probabilities (NLI and, where the model has it, four-way) move.
#   ORT_DYLIB_PATH=…/libonnxruntime.so bash scripts/runtime-agreement.sh [MODEL_DIR ...]
# The pairs: the benchmark's hand-made pairs, MultiNLI mismatched dev (every 13th pair) and 200 claims
# against the opening of long clinical-trial articles (several premise windows each), from
# ../shared/data (dev-eval files; nothing is written outside target/).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${CITELENS_DATA_DIR:-../shared/data}"
out=target/runtime-agreement
mkdir -p "$out"
cargo build --release -q -p citelens-cli
python3 - "$data" "$out/pairs.jsonl" <<'PY'
import csv, json, sys
data, path = sys.argv[1], sys.argv[2]
rows = [(p, h, "handmade") for p, h in json.load(open("tests/fixtures/handmade_pairs.json"))]
with open(f"{data}/nli/mnli/multinli_1.0_dev_mismatched.csv", newline="") as f:
    mnli = [r for r in csv.DictReader(f) if r.get("gold_label", "") != "-"]
rows += [(r["sentence1"], r["sentence2"], "mnli_mm") for r in mnli[::13]][: 800 - len(rows)]
ei = f"{data}/long_document/evidence_inference"
ids = set(open(f"{ei}/annotations_splits_ev2_validation_article_ids.txt").read().split())
seen = {}
with open(f"{ei}/annotations_prompts_merged.csv", newline="") as f:
    for r in csv.DictReader(f):
        # At most three claims an article, so that the documents vary.
        if r["PMCID"] not in ids or seen.get(r["PMCID"], 0) >= 3 or len(rows) >= 1000:
            continue
        try:
            text = open(f"{ei}/txt_files/PMC{r['PMCID']}.txt", errors="replace").read()
        except OSError:
            continue
        seen[r["PMCID"]] = seen.get(r["PMCID"], 0) + 1
        claim = f"Compared with {r['Comparator'].strip()}, {r['Intervention'].strip()} changed {r['Outcome'].strip()}."
        rows.append((text[:2500], claim, "long_document"))
with open(path, "w") as f:
    for p, h, kind in rows:
        f.write(json.dumps({"premise": p, "hypothesis": h, "kind": kind}) + "\n")
print(f"{len(rows)} pairs: " + ", ".join(f"{k} {sum(r[2] == k for r in rows)}" for k in ["handmade", "mnli_mm", "long_document"]))
PY
[ $# -gt 0 ] || set -- models/citelens-nli-minilm
# `citelens nli` exits 1 when a line is refused (a hypothesis over the token limit): those lines are
# skipped in the comparison, not a reason to stop.
nli() { target/release/citelens nli --model "$model" --input "$out/pairs.jsonl" "$@" 2>&1 | tail -1 || true; }
for model in "$@"; do
  name=$(basename "$model")
  echo "$name tract: $(nli --runtime tract --output "$out/$name.tract.jsonl")"
  echo "$name ort: $(nli --runtime ort --output "$out/$name.ort.jsonl")"
  echo "$name ort --ort-int8: $(nli --runtime ort --ort-int8 --output "$out/$name.ort-int8.jsonl")"
  python3 - "$out" "$name" <<'PY'
import json, sys
out, name = sys.argv[1], sys.argv[2]
load = lambda mode: [json.loads(l) for l in open(f"{out}/{name}.{mode}.jsonl")]
tract = load("tract")
for mode in ["ort", "ort-int8"]:
    agree = n = within = 0
    worst = 0.0
    for a, b in zip(tract, load(mode)):
        if "error" in a or "error" in b:
            continue
        n += 1
        agree += a["label"] == b["label"]
        keys = ["entailment", "neutral", "contradiction"]
        diff = max(abs(a[k] - b[k]) for k in keys)
        if "four_way" in a and "four_way" in b:
            diff = max(diff, max(abs(x - y) for x, y in zip(a["four_way"], b["four_way"])))
        within += diff <= 0.02
        worst = max(worst, diff)
    print(f"{name} {mode} vs tract: labels agree on {agree}/{n} pairs ({100 * agree / n:.2f} %); probabilities within 0.02 on {within}/{n} ({100 * within / n:.2f} %); largest difference {worst:.4f}")
PY
done
