"""Trains the learned combiner: a sentence's category from the engine's readings of it.

Input: the features `citelens bench --dataset cases --features FILE` writes (one JSON line per
sentence: record id, gold category, features in `combiner::FEATURE_NAMES` order), for the
`citelens_synth` train split (answers and claims). Output: the JSON file the engine ships as
`crates/citelens-engine/data/combiner.json`.

The model is multinomial logistic regression on standardised features (L2). Its regularisation and
the price of a flip (supportive for contradictory, or back) are chosen by cross-validation on train,
grouped by record so no source text is in both halves; the unsure level is chosen on the dev split
(the issue's yardstick for calibration): the lowest top probability at which the sure verdicts on
dev answers reach `--sure-accuracy`.

    python3 training/combiner.py --train target/synth/out/train_answers.features.jsonl \
        target/synth/out/train_claims.features.jsonl \
        --dev target/synth/out/dev_answers.features.jsonl target/synth/out/dev_claims.features.jsonl \
        --out crates/citelens-engine/data/combiner.json

Needs numpy and scikit-learn (training only; the engine evaluates the exported weights itself).
"""
import argparse
import json
import re
import sys
from pathlib import Path

CATEGORIES = ["supportive", "partially_supportive", "contradictory", "irrelevant"]
FLIPS = {(0, 2), (2, 0)}


def feature_names(rust_file):
    """`FEATURE_NAMES` as the engine lists them (`crates/citelens-engine/src/decide/combiner.rs`)."""
    src = Path(rust_file).read_text()
    block = src[src.index("pub const FEATURE_NAMES"):]
    return re.findall(r'"([a-z_]+)"', block[: block.index("];")])


def load(paths, head_selection_only=False):
    """Feature rows (record key, gold, features, the rules' verdict). `head_selection_only` keeps the
    records the four-way head never trained on (`synth_cases.in_head_selection`)."""
    from synth_cases import in_head_selection

    rows = []
    for p in paths:
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if not r["features"]:  # a sentence with nothing to verify
                continue
            if head_selection_only and not in_head_selection(r["id"]):
                continue
            rows.append((f"{Path(p).name}:{r['id'] or r['case']}", CATEGORIES.index(r["gold"]), r["features"], CATEGORIES.index(r["predicted"])))
    return rows


def costs_matrix(flip_cost):
    c = [[0.0 if g == p else 1.0 for p in range(4)] for g in range(4)]
    for g, p in FLIPS:
        c[g][p] = flip_cost
    return c


def decide(proba, costs):
    import numpy as np

    expected = proba @ np.asarray(costs)  # [n, predicted]
    return expected.argmin(axis=1)


def figures(gold, pred, top=None, unsure_below=0.0):
    import numpy as np

    gold, pred = np.asarray(gold), np.asarray(pred)
    n = len(gold)
    flips = sum(1 for g, p in zip(gold, pred) if (g, p) in FLIPS)
    con = gold == 2
    sup_called = pred == 0
    out = {
        "accuracy": round(100.0 * float((gold == pred).mean()), 2),
        "flips": flips,
        "flip_rate": round(100.0 * flips / max(n, 1), 2),
        "contradictions_found": f"{int(((pred == 2) & con).sum())}/{int(con.sum())}",
        "supportive_precision": round(100.0 * float((gold[sup_called] == 0).mean()) if sup_called.any() else 0.0, 2),
        "n": n,
    }
    if top is not None:
        sure = np.asarray(top) >= unsure_below
        out["sure_coverage"] = round(100.0 * float(sure.mean()), 1)
        out["sure_accuracy"] = round(100.0 * float((gold[sure] == pred[sure]).mean()) if sure.any() else 0.0, 2)
    return out


def fit(x, y, c_reg, weight=None):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=c_reg, max_iter=5000)
    model.fit(x, y, sample_weight=weight)
    return model


def main():
    import numpy as np
    from sklearn.model_selection import GroupKFold

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--dev", nargs="*", default=[])
    ap.add_argument("--names", default="crates/citelens-engine/src/decide/combiner.rs", help="where FEATURE_NAMES is")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sure-accuracy", type=float, default=75.0, help="the accuracy sure verdicts must reach on dev answers")
    ap.add_argument("--answer-weights", type=float, nargs="+", default=[1.0, 2.0, 3.0],
                    help="weights tried for rows of the answers files (claims weigh 1): the product reads whole answers")
    ap.add_argument("--max-flip-rate", type=float, default=None,
                    help="per train file, the most flips (percent of its sentences) a setting may make in cross-validation; "
                         "default: no more than the rules made there")
    ap.add_argument("--head-selection-only", action="store_true",
                    help="learn only from the train records a four-way head trained on citelens_synth never saw "
                         "(synth_cases.in_head_selection): on the others its outputs are better than on new answers, "
                         "and the combiner would learn to trust it too much. Needed with a head from CASES_REPEAT>0")
    a = ap.parse_args()

    names = feature_names(a.names)

    train = load(a.train, head_selection_only=a.head_selection_only)
    groups = np.array([g.split(":", 1)[1] for g, _, _, _ in train])
    source = np.array([g.split(":", 1)[0] for g, _, _, _ in train])
    y = np.array([c for _, c, _, _ in train])
    x = np.array([f for _, _, f, _ in train], dtype=np.float64)
    rules = np.array([r for _, _, _, r in train])
    assert x.shape[1] == len(names), f"features {x.shape[1]} vs names {len(names)}"
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale

    # Cross-validation on train, grouped by record: out-of-fold probabilities per setting. The setting
    # kept is the most accurate (mean over the train files) that flips no more verdicts than the rules
    # did on each file: the combiner must not buy accuracy with flips.
    folds = list(GroupKFold(n_splits=5).split(z, y, groups))
    files = sorted(set(source))
    rule_flips = {f: figures(y[source == f], rules[source == f])["flips"] for f in files}
    print(f"rules on train: " + "; ".join(f"{f}: {figures(y[source == f], rules[source == f])}" for f in files))
    best = None
    for weight in a.answer_weights:
        w = np.where(np.char.find(source.astype(str), "answers") >= 0, weight, 1.0)
        for c_reg in (0.1, 0.3, 1.0):
            proba = np.zeros((len(y), 4))
            for tr, te in folds:
                proba[te] = fit(z[tr], y[tr], c_reg, w[tr]).predict_proba(z[te])
            for flip_cost in (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 8.0, 12.0, 20.0):
                pred = decide(proba, costs_matrix(flip_cost))
                per = {f: figures(y[source == f], pred[source == f]) for f in files}
                if a.max_flip_rate is None:
                    ok = all(per[f]["flips"] <= rule_flips[f] for f in files)
                else:
                    ok = all(per[f]["flip_rate"] <= a.max_flip_rate for f in files)
                key = (ok, sum(per[f]["accuracy"] for f in files) / len(files))
                if best is None or key > best[0]:
                    best = (key, weight, c_reg, flip_cost, per)
                print(f"cv answer_weight={weight} C={c_reg} flip_cost={flip_cost}: {per}", file=sys.stderr)
    _, weight, c_reg, flip_cost, cv = best
    print(f"chosen on train CV: answer_weight={weight} C={c_reg} flip_cost={flip_cost}: {cv}")
    w = np.where(np.char.find(source.astype(str), "answers") >= 0, weight, 1.0)
    model = fit(z, y, c_reg, w)
    assert list(model.classes_) == [0, 1, 2, 3], model.classes_
    costs = costs_matrix(flip_cost)

    report = {"cv_train": cv, "C": c_reg, "flip_cost": flip_cost, "answer_weight": weight}
    unsure_below = 0.0
    if a.dev:
        per_file = {}
        for p in a.dev:
            rows = load([p])
            yd = np.array([c for _, c, _, _ in rows])
            zd = (np.array([f for _, _, f, _ in rows], dtype=np.float64) - mean) / scale
            proba = model.predict_proba(zd)
            per_file[Path(p).name] = (yd, proba)
        # The unsure level: on dev answers (the first dev file), the lowest level whose sure verdicts
        # reach the asked accuracy.
        yd, proba = next(iter(per_file.values()))
        pred = decide(proba, costs)
        top = proba.max(axis=1)
        for level in np.arange(0.30, 0.95, 0.01):
            sure = top >= level
            if sure.any() and 100.0 * (yd[sure] == pred[sure]).mean() >= a.sure_accuracy:
                unsure_below = float(round(level, 2))
                break
        else:
            unsure_below = 0.95
        for name, (yd, proba) in per_file.items():
            f = figures(yd, decide(proba, costs), proba.max(axis=1), unsure_below)
            report[name] = f
            print(f"dev {name}: {f}")
    out = {
        "features": names,
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "weights": [[round(float(v), 6) for v in row] for row in model.coef_],
        "bias": [round(float(v), 6) for v in model.intercept_],
        "costs": costs,
        "unsure_below": unsure_below,
        "trained_on": {
            "data": ("citelens_synth train split (answers and claims; ../shared/data/citelens_synth/train_ids.txt)"
                     + (", only the records the four-way head did not train on (synth_cases.in_head_selection)" if a.head_selection_only else "")
                     + ", features from `citelens bench --features`"),
            "licences": "citelens_synth: CC0-1.0 for what was written for citelens; its quoted passages: Fool Me Twice "
                        "(Apache-2.0; Wikipedia CC-BY-SA), FactCG (MIT), SummEdits (Apache-2.0), Evidence Inference (MIT; PMC open access)",
            "rows": int(len(y)),
            "model": "multinomial logistic regression, L2",
            "figures": report,
        },
    }
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {a.out}: unsure_below {unsure_below}")


if __name__ == "__main__":
    main()
