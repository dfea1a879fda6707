"""citelens_synth as the cases format of `citelens bench --dataset cases`, split by its id lists.

Writes, for each split (train, dev), two files:
- `<split>_answers.jsonl`: each record's answer with its gold category per sentence;
- `<split>_claims.jsonl`: each labelled claim as a one-sentence answer ("<text> [1]."), one per line;
and `train_head_selection_{answers,claims}.jsonl`: the train records a four-way head trained on
citelens_synth does not train on (`in_head_selection`): the combiner's rows with such a head.

    python3 training/synth_cases.py --data ../shared/data/citelens_synth --out target/synth

Standard library only. The dev split is the development yardstick: never train the shipped model or
the combiner on it.
"""
import argparse
import json
import zlib
from pathlib import Path

CATEGORIES = ("supportive", "partially_supportive", "contradictory", "irrelevant")
# Tenths of the train records (by `in_head_selection`) that a four-way head trained on citelens_synth
# (training/fourway.py --cases-repeat) never trains on: they choose its epoch, and they are the only
# train rows a combiner may learn that head's outputs from (on the records the head trained on, its
# outputs are better than they will be on new answers).
HEAD_SELECTION_TENTHS = 2


def in_head_selection(record, tenths=HEAD_SELECTION_TENTHS):
    """Whether a train record (by a stable hash of its id) is kept apart from the four-way head's
    training. Grouped by record, so an answer and its claims fall on the same side."""
    return zlib.crc32(str(record).encode()) % 10 < tenths


def overall(labels):
    """CAQA's rule, as the data set's README states it for gold_overall."""
    if all(l == "supportive" for l in labels):
        return "supportive"
    if any(l == "contradictory" for l in labels):
        return "contradictory"
    if any(l in ("supportive", "partially_supportive") for l in labels):
        return "partially_supportive"
    return "irrelevant"


def records(data_dir):
    for part in sorted(Path(data_dir).glob("part-*.jsonl")):
        for line in part.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def claim_case(rec, claim):
    markers = "".join(f"[{c}]" for c in claim["cites"])
    text = claim["text"].rstrip().rstrip(".")
    label = claim["label"]
    if label not in CATEGORIES:
        raise ValueError(f"{rec['id']}: claim label {label!r}")
    return {
        "id": rec["id"],
        "question": rec["question"],
        "answer": f"{text} {markers}.",
        "citations": rec["citations"],
        "gold_sentences": [label],
        "gold_overall": label,
    }


def answer_case(rec):
    for l in rec["gold_sentences"]:
        if l not in CATEGORIES:
            raise ValueError(f"{rec['id']}: sentence label {l!r}")
    return {
        "id": rec["id"],
        "question": rec["question"],
        "answer": rec["answer"],
        "citations": rec["citations"],
        "gold_sentences": rec["gold_sentences"],
        "gold_overall": rec.get("gold_overall") or overall(rec["gold_sentences"]),
    }


def split(data_dir, out_dir):
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ids = {s: set((data_dir / f"{s}_ids.txt").read_text().split()) for s in ("train", "dev")}
    assert not ids["train"] & ids["dev"], "train and dev share records"
    rows = {(s, k): [] for s in ids for k in ("answers", "claims")}
    for rec in records(data_dir):
        s = next((s for s in ids if rec["id"] in ids[s]), None)
        if s is None:
            continue
        rows[(s, "answers")].append(answer_case(rec))
        rows[(s, "claims")].extend(claim_case(rec, c) for c in rec.get("claims", []))
    # The train records a head trained on citelens_synth never sees, apart (`in_head_selection`).
    for k in ("answers", "claims"):
        rows[("train_head_selection", k)] = [r for r in rows[("train", k)] if in_head_selection(r["id"])]
    counts = {}
    for (s, k), rs in rows.items():
        with open(out_dir / f"{s}_{k}.jsonl", "w", encoding="utf-8") as f:
            for r in rs:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        counts[f"{s}_{k}"] = len(rs)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data/citelens_synth")
    ap.add_argument("--out", default="target/synth")
    a = ap.parse_args()
    print(json.dumps(split(a.data, a.out)))


if __name__ == "__main__":
    main()
