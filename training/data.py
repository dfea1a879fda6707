"""Loaders for the train+ship data sets in ../shared/data, and CAQA-style synthetic pairs.

Every example is (premise, hypothesis, label, source). Labels: 0 entailment, 1 neutral,
2 contradiction, 3 not-entailment (binary sets: FEVER-NLI, QNLI, ExpertQA, WiCE). A not-entailment
example is trained on the marginal P(neutral) + P(contradiction), so a binary set never has to guess
which of the two its negatives are.
"""
import csv
import json
import random
import re
from pathlib import Path

import word_lists

ENT, NEU, CON, NOT_ENT = 0, 1, 2, 3
NLI_LABELS = {"entailment": ENT, "neutral": NEU, "contradiction": CON}
LABELS_3 = ["entailment", "neutral", "contradiction"]
csv.field_size_limit(10**8)


def _nli_csv(path, a="sentence1", b="sentence2", label="label", source=""):
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            lab = row[label].strip()
            if lab in NLI_LABELS and row[a] and row[b]:
                out.append((row[a].strip(), row[b].strip(), NLI_LABELS[lab], source))
    return out


def snli(root):
    return sum((_nli_csv(root / f"nli/snli/snli_1.0_{s}.csv", source="snli") for s in ("dev", "test")), [])


def mnli_matched(root):
    return _nli_csv(root / "nli/mnli/multinli_1.0_dev_matched.csv", source="mnli_m")


def mnli_mismatched(root):
    """dev-eval only: never trained on."""
    rows = []
    with open(root / "nli/mnli/multinli_1.0_dev_mismatched.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["label"] in NLI_LABELS:
                rows.append((row["pairID"], row["sentence1"], row["sentence2"], NLI_LABELS[row["label"]]))
    return rows


def fever_nli(root):
    out = []
    for s in ("dev", "test"):
        with open(root / f"nli/fever_nli/{s}.tsv", encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 3:
                    continue
                lab, prem, hyp = parts
                out.append((prem, hyp, ENT if lab == "entailment" else NOT_ENT, "fever_nli"))
    return out


def qnli(root):
    out = []
    with open(root / "nli/qnli/qnli_dev.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            # QNLI's "premise" column is the question; the sentence is the evidence.
            out.append((row["hypothesis"], row["premise"], ENT if row["label"] == "entailment" else NOT_ENT, "qnli"))
    return out


_WORD = re.compile(r"\w+")


def _best_window(text, claim, words=90):
    """The ~`words`-word window of a long passage that shares most words with the claim."""
    toks = text.split()
    if len(toks) <= words:
        return text
    want = {w.lower() for w in _WORD.findall(claim) if len(w) > 3}
    best, best_score = 0, -1
    for start in range(0, len(toks) - words + 1, 15):
        win = {w.lower() for t in toks[start:start + words] for w in _WORD.findall(t)}
        score = len(want & win)
        if score > best_score:
            best, best_score = start, score
    return " ".join(toks[best:best + words])


def expertqa(root):
    """Claims judged against their cited passages: Complete -> entailment; Partial/Incomplete -> not."""
    out, seen = [], set()
    for name in ("data_lfqa_rand_val.jsonl", "data_lfqa_rand_test.jsonl"):
        with open(root / "attribution/expertqa" / name, encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)
                for ans in q["answers"].values():
                    for c in ans.get("claims") or []:
                        sup, ev = c.get("support"), c.get("evidence") or []
                        if sup not in ("Complete", "Partial", "Incomplete") or not isinstance(ev, list):
                            continue
                        claim = re.sub(r"\s*\[\d+\]", "", c["claim_string"]).strip()
                        text = " ".join(e.split("\n\n", 1)[-1] for e in ev if isinstance(e, str))
                        if len(text) < 30 or (claim, text[:200]) in seen:
                            continue
                        seen.add((claim, text[:200]))
                        out.append((_best_window(text, claim), claim, ENT if sup == "Complete" else NOT_ENT, "expertqa"))
    return out


def wice_tokens_train(root):
    """WiCE claims with some unsupported tokens, against their supporting sentences: not entailed."""
    out = []
    with open(root / "attribution/wice/non_supported_tokens_train.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            ids = sorted({i for group in r["supporting_sentences"] for i in group})
            prem = " ".join(r["evidence"][i] for i in ids if i < len(r["evidence"]))
            if prem:
                out.append((prem, r["claim"], NOT_ENT, "wice"))
    return out


# --- CAQA-style synthetic pairs -------------------------------------------------------------
# The engine's month names (its numbers-and-dates check reads the same list), capitalised as prose has them.
MONTHS = [m.capitalize() for m in word_lists.load("months")]
NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_YEAR = re.compile(r"\b(1[5-9]\d\d|20[0-3]\d)\b")
_NUM = re.compile(r"\b\d+(?:\.\d+)?\b")
_MONTH = re.compile(r"\b(" + "|".join(MONTHS) + r")\b")
_NUMWORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b")
_ENTITY = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)\b")


def _entity_pool(examples, rng, cap=20000):
    pool = set()
    for prem, _, _, _ in examples:
        for m in _ENTITY.findall(prem):
            pool.add(m)
            if len(pool) >= cap:
                return sorted(pool)
    return sorted(pool)


def _swap(hyp, prem, rng, entities):
    """Replace one fact of the hypothesis that the premise pins down by another of the same type."""
    options = []
    for m in _YEAR.finditer(hyp):
        if m.group(0) in prem:
            y = int(m.group(0))
            options.append((m, str(y + rng.choice([-11, -7, -3, -2, -1, 1, 2, 4, 9, 13]))))
    for m in _MONTH.finditer(hyp):
        if m.group(0) in prem:
            options.append((m, rng.choice([x for x in MONTHS if x != m.group(0)])))
    for m in _NUM.finditer(hyp):
        if m.group(0) in prem and not _YEAR.fullmatch(m.group(0)):
            n = float(m.group(0))
            new = n * rng.choice([2, 3, 0.5]) + rng.choice([1, 2, 5])
            options.append((m, str(int(new)) if "." not in m.group(0) else f"{new:.1f}"))
    for m in _NUMWORD.finditer(hyp):
        if m.group(0) in prem.lower():
            options.append((m, rng.choice([x for x in NUMBER_WORDS if x != m.group(0)])))
    for m in _ENTITY.finditer(hyp):
        if m.group(0) in prem and entities:
            other = rng.choice(entities)
            if other not in prem:
                options.append((m, other))
    if not options:
        return None
    m, new = rng.choice(options)
    return hyp[:m.start()] + new + hyp[m.end():]


def synthetic(examples, rng, n_contra, n_neutral, n_random):
    """Contradictions by swapping an entity, number or date that the premise pins down; neutrals by
    adding a fact the premise lacks (a second claim from another pair) and by an unrelated premise."""
    entailed = [e for e in examples if e[2] == ENT]
    entities = _entity_pool(examples, rng)
    out = []
    rng.shuffle(entailed)
    for prem, hyp, _, src in entailed:
        if len(out) >= n_contra:
            break
        new = _swap(hyp, prem, rng, entities)
        if new and new != hyp:
            out.append((prem, new, CON, "synth_swap"))
    added = 0
    while added < n_neutral:
        p1, h1, _, _ = rng.choice(entailed)
        _, h2, _, _ = rng.choice(entailed)
        h1, h2 = h1.rstrip(" ."), h2.rstrip(" .")
        if not h2:
            continue
        out.append((p1, f"{h1}, and {h2[0].lower()}{h2[1:]}.", NEU, "synth_addfact"))
        added += 1
    for _ in range(n_random):
        p1, _, _, _ = rng.choice(examples)
        _, h2, _, _ = rng.choice(examples)
        out.append((p1, h2, NEU, "synth_unrelated"))
    return out


def training_mix(root, seed=13):
    root = Path(root)
    rng = random.Random(seed)
    base = snli(root) + mnli_matched(root) + fever_nli(root) + qnli(root) + expertqa(root) + wice_tokens_train(root)
    facts = [e for e in base if e[3] in ("fever_nli", "snli", "mnli_m", "expertqa")]
    synth = synthetic(facts, rng, n_contra=7000, n_neutral=3000, n_random=1500)
    mix = base + synth
    rng.shuffle(mix)
    return mix


def held_out(mix, n=1500):
    """The 3-way pairs kept out of every training stage, for temperature calibration and a sanity figure."""
    return [e for e in mix if e[2] < 3 and e[3] in ("snli", "mnli_m", "synth_swap")][:n]


def in_genre_mix(mix):
    """Stage 3: MultiNLI matched only, the one source written in MultiNLI's genres."""
    return [e for e in mix if e[3] == "mnli_m"]


def nli_focus_mix(mix, seed=13, other_fraction=0.25, flip=True):
    """Stage 2 from the stage-1 `mix`: every SNLI/MNLI pair, each contradiction also read the other way
    round (contradiction is symmetric), and a sample of the rest so the other sources are not forgotten."""
    rng = random.Random(seed + 1)
    nli = [e for e in mix if e[3] in ("snli", "mnli_m")]
    flipped = [(e[1], e[0], CON, e[3] + "_flip") for e in nli if e[2] == CON] if flip else []
    rest = [e for e in mix if e[3] not in ("snli", "mnli_m") and rng.random() < other_fraction]
    out = nli + flipped + rest
    rng.shuffle(out)
    return out


# Words that start an SNLI/MultiNLI hypothesis and are lowercased when it becomes a second clause;
# anything else (a name, "I") keeps its capital.
_LOWER_STARTS = {
    "a", "an", "the", "two", "three", "four", "five", "several", "some", "many", "there", "this", "that",
    "these", "those", "he", "she", "they", "it", "his", "her", "their", "its", "people", "men", "women",
    "one", "no", "nobody", "someone", "somebody", "everyone", "all", "most", "both", "each", "we", "you",
}
_JOINERS = [", and ", "; ", " and ", ", while "]


def _clause(sentence, first):
    s = sentence.strip().rstrip(".!")
    if not s:
        return s
    if first:
        return s[0].upper() + s[1:]
    head = s.split(" ", 1)[0]
    return s[0].lower() + s[1:] if head.lower() in _LOWER_STARTS else s


def join_claims(a, b, rng):
    """One answer sentence stating two facts, the way an assistant writes them: "A, and b."."""
    return _clause(a, True) + rng.choice(_JOINERS) + _clause(b, False) + "."


def composed_four_way(examples, rng, n):
    """Four-way rows on everyday prose, built the way CAQA edits a grounding subgraph, from NLI premises
    that carry an entailed, a neutral and a contradicted hypothesis (SNLI / MultiNLI group them):
    - supportive: two entailed facts joined, against both their premises (two sources, one sentence);
    - partially supportive: an entailed fact joined with the same premise's neutral one (the evidence
      lacks a fact the sentence states), against that premise, sometimes with an unrelated second
      premise beside it;
    - contradictory: an entailed fact joined with the premise's contradicted one;
    - irrelevant: an entailed fact against another group's premise.
    Rows are (premise, sentence, gold, None) in `fourway.py`'s shape, about n/4 of each."""
    groups = {}
    for prem, hyp, y, _ in examples:
        if y in (ENT, NEU, CON):
            groups.setdefault(prem, {}).setdefault(y, []).append(hyp)
    full = [(p, g) for p, g in groups.items() if all(k in g for k in (ENT, NEU, CON))]
    rng.shuffle(full)
    if len(full) < 2:
        return []
    out = []
    for i in range(min(n, 4 * len(full))):
        prem, g = full[i % len(full)]
        other_prem, other = full[(i + 1 + rng.randrange(len(full) - 1)) % len(full)]
        fact = rng.choice(g[ENT])
        kind = i % 4
        if kind == 0:
            pair = [(fact, prem), (rng.choice(other[ENT]), other_prem)]
            rng.shuffle(pair)
            out.append((pair[0][1] + " " + pair[1][1], join_claims(pair[0][0], pair[1][0], rng), "supportive", None))
        elif kind == 1:
            sentence = join_claims(fact, rng.choice(g[NEU]), rng)
            evidence = prem if rng.random() < 0.7 else prem + " " + other_prem
            out.append((evidence, sentence, "partially_supportive", None))
        elif kind == 2:
            parts = [fact, rng.choice(g[CON])]
            rng.shuffle(parts)
            out.append((prem, join_claims(parts[0], parts[1], rng), "contradictory", None))
        else:
            out.append((other_prem, fact, "irrelevant", None))
    return out
