"""Dev figures for the shipped model, computed through the Rust product path (`citelens nli --input`).

    python training/evaluate.py [--model models/citelens-nli-minilm] [--bin target/release/citelens]

- MultiNLI mismatched dev (never trained on): 3-way accuracy.
- FEVER-symmetric dev: SUPPORTS vs REFUTES accuracy (SUPPORTS when P(entailment) >= P(contradiction)).
- WiCE claim dev with oracle chunks: a claim's score is the largest P(entailment) over its chunks;
  "supported" vs the rest, binary F1 at P >= 0.5, and (flagged) at the threshold best on dev itself.
"""
import argparse
import ast
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def score(bin_path, model, rows):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    t = time.time()
    out = subprocess.run([bin_path, "nli", "--input", f.name, "--model", model], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    res = [json.loads(line) for line in out.stdout.splitlines()]
    errors = [r for r in res if "error" in r]
    return res, errors, time.time() - t


def f1(pred, gold):
    tp = sum(p and g for p, g in zip(pred, gold))
    fp = sum(p and not g for p, g in zip(pred, gold))
    fn = sum(g and not p for p, g in zip(pred, gold))
    return 200 * tp / max(1, 2 * tp + fp + fn)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(REPO.parent / "shared/data"))
    ap.add_argument("--model", default=str(REPO / "models/citelens-nli-minilm"))
    ap.add_argument("--bin", default=str(REPO / "target/release/citelens"))
    ap.add_argument("--out", default=str(REPO / "training/out/eval.json"))
    args = ap.parse_args()
    root = Path(args.data)
    figures = {}

    mm = data.mnli_mismatched(root)
    res, err, secs = score(args.bin, args.model, [{"premise": p, "hypothesis": h, "gold": y} for _, p, h, y in mm])
    acc = sum(r.get("label") == data.LABELS_3[r["gold"]] for r in res if "gold" in r) / len(mm)
    figures["mnli_mismatched_acc"] = round(100 * acc, 2)
    print(f"MultiNLI mismatched dev: 3-way accuracy {100 * acc:.2f}% on {len(mm)} pairs ({len(err)} errors, {len(mm) / secs:.1f} pairs/s)")

    fs = [json.loads(line) for line in open(root / "nli/fever_symmetric/fever_symmetric_dev.jsonl")]
    res, err, _ = score(args.bin, args.model, [{"premise": r["evidence"], "hypothesis": r["claim"], "gold": r["label"]} for r in fs])
    ok = sum((r["entailment"] >= r["contradiction"]) == (r["gold"] == "SUPPORTS") for r in res if "entailment" in r)
    figures["fever_symmetric_acc"] = round(100 * ok / len(fs), 2)
    print(f"FEVER-symmetric dev: SUPPORTS vs REFUTES accuracy {100 * ok / len(fs):.2f}% on {len(fs)} pairs ({len(err)} errors)")

    chunks = [json.loads(line) for line in open(root / "attribution/wice/oracle_chunks_claim_dev.jsonl")]
    rows = []
    for c in chunks:
        meta = ast.literal_eval(c["meta"]) if isinstance(c["meta"], str) else c["meta"]
        ev = c["evidence"] if isinstance(c["evidence"], list) else ast.literal_eval(c["evidence"])
        rows.append({"premise": " ".join(ev), "hypothesis": c["claim"], "claim_id": meta["id"], "gold": c["label"]})
    res, err, secs = score(args.bin, args.model, rows)
    best = defaultdict(float)
    gold = {}
    for r in res:
        if "entailment" in r:
            best[r["claim_id"]] = max(best[r["claim_id"]], r["entailment"])
            gold[r["claim_id"]] = r["gold"] == "supported"
    ids = sorted(gold)
    g = [gold[i] for i in ids]
    s = [best[i] for i in ids]
    f_default = f1([x >= 0.5 for x in s], g)
    acc_default = 100 * sum((x >= 0.5) == y for x, y in zip(s, g)) / len(ids)
    tuned = max((f1([x >= t for x in s], g), t) for t in [i / 100 for i in range(5, 96)])
    figures.update({"wice_binary_f1_at_0.5": round(f_default, 2), "wice_acc_at_0.5": round(acc_default, 2),
                    "wice_binary_f1_dev_tuned": round(tuned[0], 2), "wice_dev_tuned_threshold": tuned[1],
                    "wice_claims": len(ids)})
    print(f"WiCE claim dev (oracle chunks, {len(ids)} claims): supported-vs-rest F1 {f_default:.2f} "
          f"(accuracy {acc_default:.2f}%) at P(entailment) >= 0.5; {tuned[0]:.2f} at {tuned[1]:.2f} "
          f"(threshold chosen on this same dev set: optimistic) ({len(err)} errors, {len(rows) / secs:.1f} chunks/s)")
    Path(args.out).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
