"""How well each combiner feature alone tells supportive from contradictory sentences (ROC AUC,
direction-free: 0.5 is chance), on the feature files `citelens bench --features` writes.

    python3 training/separability.py target/synth/out/train_answers.features.jsonl \
        target/synth/out/train_claims.features.jsonl --top 10

It measures what any combiner of the engine's readings can reach: if no feature separates the two,
the model's readings, not the decision logic, are the limit. Needs numpy and scikit-learn.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import combiner  # noqa: E402

SUPPORTIVE, CONTRADICTORY = combiner.CATEGORIES.index("supportive"), combiner.CATEGORIES.index("contradictory")


def main():
    import numpy as np
    from sklearn.metrics import roc_auc_score

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--names", default="crates/citelens-engine/src/decide/combiner.rs")
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    names = combiner.feature_names(a.names)
    rows = [r for r in combiner.load(a.files) if r[1] in (SUPPORTIVE, CONTRADICTORY)]
    x = np.array([r[2] for r in rows], dtype=float)
    contradictory = np.array([r[1] == CONTRADICTORY for r in rows])
    print(f"{len(rows)} sentences: {int((~contradictory).sum())} supportive, {int(contradictory.sum())} contradictory")
    auc = []
    for i, n in enumerate(names):
        v = 0.5 if x[:, i].std() == 0 else roc_auc_score(contradictory, x[:, i])
        auc.append((max(v, 1.0 - v), n))
    for v, n in sorted(auc, reverse=True)[: a.top]:
        print(f"{v:.3f} {n}")


if __name__ == "__main__":
    main()
