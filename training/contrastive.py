"""Contrastive pairs made from real prose (the premises of the train+ship sets), for the model's
known blind spots in cited answers: negation, antonyms, numbers and dates, facts added or dropped,
sentences fused.

Each pair is (premise, hypothesis, label, source): the premise is a real passage; the hypothesis is
one of its sentences, edited:
- a clause or parenthetical dropped, or the sentence copied          -> entailment
- two of its sentences fused into one ("X, and Y")                   -> entailment
- a negation inserted after the first auxiliary, or removed          -> contradiction
- a word swapped for its antonym                                     -> contradiction
- a number or year swapped for another of the same document          -> contradiction
- a fact from another passage added                                  -> neutral
- a word swapped for a WordNet synonym of its first sense            -> entailment
- a word swapped for a WordNet antonym of its first sense            -> contradiction
The WordNet pairs teach that a different word is not by itself a contradiction (the shipped model
reads "remained" against "was", or "hangs in the Louvre" against "on display at the Louvre", as one);
they are made only where Debian's wordnet-base is installed.
"""
import random
import re
from collections import Counter
from pathlib import Path

from data import CON, ENT, NEU

try:
    import wordnet
except ImportError:  # run from another directory
    from training import wordnet

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_AUX = re.compile(r"\b(is|was|are|were|has|have|had|can|could|will|would|does|did|should|must)\b")
_NEG = re.compile(r"\b(is|was|are|were|has|have|had|can|could|will|would|does|did|should|must) (not|never) ")
_NUM = re.compile(r"\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\b")
# The engine's own list of opposites (its header says what is in it and what is left out): the
# contradictions made here swap the words the engine's checks look for, and no others.
ANTONYMS_FILE = Path(__file__).resolve().parent.parent / "crates/citelens-engine/data/antonyms.tsv"
ANTONYMS = [tuple(l.split("\t")) for l in ANTONYMS_FILE.read_text(encoding="utf-8").splitlines()
            if l.strip() and not l.startswith("#")]
_ANT = {a: b for a, b in ANTONYMS} | {b: a for a, b in ANTONYMS}


def sentences(text):
    return [s.strip() for s in _SENT.split(text) if 8 <= len(s.split()) <= 45]


def drop_clause(s, rng):
    """The sentence less a parenthetical or its last comma clause: still entailed."""
    if "(" in s and ")" in s:
        out = re.sub(r"\s*\([^()]*\)", "", s)
        if out != s:
            return out
    parts = s.rstrip(".").split(", ")
    if len(parts) >= 2 and len(parts[0].split()) >= 6:
        return parts[0] + "."
    return None


def negate(s, rng):
    m = _NEG.search(s)
    if m:  # remove the negation
        return s[:m.start()] + m.group(1) + " " + s[m.end():]
    m = _AUX.search(s)
    if not m or m.start() == 0:
        return None
    word = rng.choice(["not", "never"]) if m.group(1) not in ("does", "did") else "not"
    return s[:m.end()] + " " + word + s[m.end():]


def antonym(s, rng):
    words = list(re.finditer(r"\b[a-z]+\b", s))
    options = [w for w in words if w.group(0) in _ANT]
    if not options:
        return None
    w = rng.choice(options)
    return s[:w.start()] + _ANT[w.group(0)] + s[w.end():]


def swap_number(s, doc, rng):
    nums = list(_NUM.finditer(s))
    if not nums:
        return None
    m = rng.choice(nums)
    others = [n for n in set(_NUM.findall(doc)) if n != m.group(0)]
    if others and rng.random() < 0.5:
        new = rng.choice(sorted(others))
    else:
        raw = m.group(0).replace(",", "")
        try:
            v = float(raw)
        except ValueError:
            return None
        if len(raw) == 4 and 1000 <= v <= 2100:
            new = str(int(v) + rng.choice([-11, -5, -2, -1, 1, 2, 3, 10]))
        else:
            new = str(int(v * rng.choice([2, 3]) + rng.choice([1, 3, 7]))) if "." not in raw else f"{v * 1.7 + 1:.1f}"
    if new == m.group(0):
        return None
    return s[:m.start()] + new + s[m.end():]


def wordnet_swap(s, wn, common, rng, kind):
    """`s` with one content word swapped for a synonym (kind "synonym") or an antonym ("antonym") of
    its first WordNet sense, inflected like the word; only common replacement words are used."""
    words = [m for m in re.finditer(r"\b[a-z]{4,}\b", s)]
    rng.shuffle(words)
    for m in words:
        found = wn.lemma(m.group(0))
        if not found:
            continue
        lemma, pos, suffix = found
        if kind == "synonym" and pos == "a" and lemma.endswith("ed"):
            continue  # participles read as adjectives ("built" -> "reinforced") change the sense
        options = wn.synonyms(lemma, pos) if kind == "synonym" else wn.antonyms(lemma, pos)
        options = [w for w in (wordnet.inflect(o, suffix) for o in options) if w and common[w] >= 50]
        if options:
            return s[:m.start()] + rng.choice(sorted(options)) + s[m.end():]
    return None


def pairs(examples, seed=13, n_each=1500, quota=None):
    """Contrastive pairs from the premises of `examples` ((premise, hypothesis, label, source) tuples).
    `quota` (kind -> count) replaces the default counts per kind."""
    rng = random.Random(seed)
    premises = sorted({e[0] for e in examples if len(e[0].split()) >= 12})
    rng.shuffle(premises)
    quota = quota or {"drop": n_each, "copy": n_each // 3, "fuse": n_each // 2, "negate": n_each,
                      "antonym": n_each // 2, "number": n_each, "addfact": n_each}
    counts = {k: 0 for k in quota}
    wn = wordnet.WordNet() if wordnet.available() and ({"synonym", "wn_antonym"} & set(quota)) else None
    common = Counter(w for p in premises for w in re.findall(r"[a-z]+", p.lower())) if wn else Counter()
    out = []
    for i, doc in enumerate(premises):
        if all(counts[k] >= quota[k] for k in counts):
            break
        sents = sentences(doc)
        if not sents:
            continue
        s = rng.choice(sents)
        s = s if s.endswith((".", "!", "?")) else s + "."

        def add(kind, hyp, label):
            if hyp and hyp != doc and kind in quota and counts[kind] < quota[kind]:
                out.append((doc, hyp, label, "contrast_" + kind))
                counts[kind] += 1

        add("drop", drop_clause(s, rng), ENT)
        if rng.random() < 0.3:
            add("copy", s, ENT)
        if len(sents) >= 2 and rng.random() < 0.5:
            a, b = sents[0].rstrip(". "), sents[1]
            add("fuse", f"{a}, and {b[0].lower()}{b[1:]}", ENT)
        add("negate", negate(s, rng), CON)
        add("antonym", antonym(s, rng), CON)
        add("number", swap_number(s, doc, rng), CON)
        if wn:
            add("synonym", wordnet_swap(s, wn, common, rng, "synonym"), ENT)
            add("wn_antonym", wordnet_swap(s, wn, common, rng, "antonym"), CON)
        other = rng.choice(premises)
        if other != doc:
            extra = sentences(other)
            if extra:
                e = extra[0].rstrip(". ")
                add("addfact", f"{s.rstrip('. ')}, and {e[0].lower()}{e[1:]}.", NEU)
    rng.shuffle(out)
    return out
