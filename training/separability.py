"""How well each combiner feature alone tells supportive from contradictory sentences (ROC AUC,
direction-free: 0.5 is chance), on the feature files `citelens bench --features` writes.

    python3 training/separability.py target/synth/out/train_answers.features.jsonl \
        target/synth/out/train_claims.features.jsonl --top 10

It measures what any combiner of the engine's readings can reach: if no feature separates the two,
the model's readings, not the decision logic, are the limit. Needs numpy and scikit-learn.
"""
import argparse
import json
import re
from pathlib import Path

CATEGORIES = ["supportive", "partially_supportive", "contradictory", "irrelevant"]


def main():
    import numpy as np
    from sklearn.metrics import roc_auc_score

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--names", default="crates/citelens-engine/src/combiner.rs")
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    src = Path(a.names).read_text()
    block = src[src.index("pub const FEATURE_NAMES"):]
    names = re.findall(r'"([a-z_]+)"', block[: block.index("];")])
    rows = [json.loads(l) for f in a.files for l in Path(f).read_text().splitlines() if l.strip()]
    rows = [r for r in rows if r["features"] and r["gold"] in ("supportive", "contradictory")]
    x = np.array([r["features"] for r in rows], dtype=float)
    contradictory = np.array([r["gold"] == "contradictory" for r in rows])
    print(f"{len(rows)} sentences: {int((~contradictory).sum())} supportive, {int(contradictory.sum())} contradictory")
    auc = []
    for i, n in enumerate(names):
        v = 0.5 if x[:, i].std() == 0 else roc_auc_score(contradictory, x[:, i])
        auc.append((max(v, 1.0 - v), n))
    for v, n in sorted(auc, reverse=True)[: a.top]:
        print(f"{v:.3f} {n}")


if __name__ == "__main__":
    main()
