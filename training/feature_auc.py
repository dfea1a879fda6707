"""How well each engine feature alone separates two gold categories (a diagnostic, chooses nothing).

Reads the rows `citelens bench --features FILE` writes (gold, features) and prints, for the rows whose
gold is one of the two categories, each feature's ROC AUC for telling the second from the first,
strongest first (an AUC under 0.5 means the feature is lower for the second category). Issue 43 used it
to ask whether the sentence head's signal is there at all: how separable are contradicted and supported
sentences, feature by feature.

    python3 training/feature_auc.py target/combiner/dev_answers.features.jsonl --top 8
"""
import argparse
import json
import re
from pathlib import Path

from sklearn.metrics import roc_auc_score

COMBINER_RS = Path(__file__).parent.parent / "crates/citelens-engine/src/decide/combiner.rs"


def feature_names(path=COMBINER_RS):
    """The engine's FEATURE_NAMES, read from its source so that the two never disagree."""
    block = path.read_text(encoding="utf-8").split("pub const FEATURE_NAMES", 1)[1].split("];", 1)[0]
    return re.findall(r'"([a-z_0-9]+)"', block)


def aucs(rows, names, first, second):
    kept = [r for r in rows if r["gold"] in (first, second)]
    y = [r["gold"] == second for r in kept]
    if len(set(y)) < 2:
        return []
    out = []
    for i, name in enumerate(names):
        x = [r["features"][i] for r in kept]
        if len(set(x)) > 1:
            out.append((name, roc_auc_score(y, x)))
    return sorted(out, key=lambda t: -abs(t[1] - 0.5))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("features", nargs="+", help="files written by citelens bench --features")
    ap.add_argument("--first", default="supportive")
    ap.add_argument("--second", default="contradictory")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    names = feature_names()
    for path in args.features:
        rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        n = sum(r["gold"] == args.first for r in rows), sum(r["gold"] == args.second for r in rows)
        print(f"{path}: {n[0]} {args.first}, {n[1]} {args.second}")
        for name, auc in aucs(rows, names, args.first, args.second)[: args.top]:
            print(f"  {name:40s} AUC {auc:.3f}")


if __name__ == "__main__":
    main()
