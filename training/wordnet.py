"""WordNet 3.0 read from Debian's `wordnet-base` files (/usr/share/wordnet), for the contrastive
pairs: a word's synonyms in its most frequent sense (an entailing paraphrase) and its direct
antonyms there (a contradiction).

Written by hand because the PyPI readers (nltk, wn) fetch their data from hosts this machine cannot
reach, while Debian ships the database itself; the format is WordNet's documented `wndb(5)`.
Only single-word lemmas are used, and a word is read in the part of speech whose first sense is
tagged most often in SemCor (`cntlist.rev`), since there is no tagger here.
"""
import re
from pathlib import Path

DEFAULT_DIR = Path("/usr/share/wordnet")
POS = {"n": "noun", "v": "verb", "a": "adj"}
# Verbs and nouns whose first senses are too light or too broad to swap safely.
LIGHT = {"be", "have", "do", "make", "get", "take", "go", "give", "come", "say", "put", "set", "see",
         "know", "use", "find", "way", "thing", "time", "year", "people", "part", "one", "lot", "kind",
         # function words WordNet also lists as adjectives ("through" -> "done", "close" -> "near")
         "through", "much", "many", "more", "most", "less", "least", "other", "such", "own", "same", "few",
         "several", "next", "last", "close", "help", "able", "only", "even", "well", "sure", "like", "still",
         "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "hundred", "thousand", "million", "billion", "first", "second", "third", "over", "near", "out",
         "down", "off", "about", "around", "single", "elder", "occur", "push", "hand", "high", "low"}
_ROMAN = re.compile(r"^[ivxlcdm]+$")


def available(root=DEFAULT_DIR):
    return all((Path(root) / f"data.{p}").exists() for p in POS.values())


class WordNet:
    def __init__(self, root=DEFAULT_DIR):
        root = Path(root)
        self.first_sense = {p: {} for p in POS}  # pos -> lemma -> synset offset of its first sense
        for p, name in POS.items():
            for line in (root / f"index.{name}").read_text(encoding="latin-1").splitlines():
                if line.startswith(" "):
                    continue
                f = line.split()
                n_ptr = int(f[3])
                offsets = f[4 + n_ptr + 2:]
                if offsets:
                    self.first_sense[p][f[0]] = offsets[0]
        self.synsets = {p: {} for p in POS}  # pos -> offset -> (lemmas, antonyms as (source word no., pos, offset, target word no.))
        for p, name in POS.items():
            for line in (root / f"data.{name}").read_text(encoding="latin-1").splitlines():
                if line.startswith(" "):
                    continue
                f = line.split(" | ")[0].split()
                offset, n_words = f[0], int(f[3], 16)
                lemmas = [re.sub(r"\(.*\)$", "", f[4 + 2 * i]).lower() for i in range(n_words)]
                k = 4 + 2 * n_words
                n_ptr = int(f[k])
                ants = []
                for j in range(n_ptr):
                    sym, off, pos, src_tgt = f[k + 1 + 4 * j: k + 5 + 4 * j]
                    if sym == "!":
                        pos = "a" if pos == "s" else pos
                        ants.append((int(src_tgt[:2], 16), pos, off, int(src_tgt[2:], 16)))
                self.synsets[p][offset] = (lemmas, ants)
        # First-sense tag counts, to choose a word's part of speech.
        self.count, self.total = {}, {}
        for line in (root / "cntlist.rev").read_text(encoding="latin-1").splitlines():
            key, sense_no, cnt = line.split()
            lemma, rest = key.split("%", 1)
            p = {"1": "n", "2": "v", "3": "a", "5": "a"}.get(rest[0])
            if p:
                self.total[(lemma, p)] = self.total.get((lemma, p), 0) + int(cnt)
                if sense_no == "1":
                    self.count[(lemma, p)] = self.count.get((lemma, p), 0) + int(cnt)
        self.exceptions = {}  # inflected -> base, per pos
        for p, name in POS.items():
            path = root / f"{name}.exc"
            for line in path.read_text(encoding="latin-1").splitlines():
                f = line.split()
                if len(f) >= 2:
                    self.exceptions[(f[0], p)] = f[1]
        self.irregular = {base for (_, p), base in self.exceptions.items() if p == "v"}

    def pos_of(self, lemma):
        """The part of speech whose first sense is tagged most, if it clearly dominates."""
        counts = sorted(((self.count.get((lemma, p), 0), p) for p in POS if lemma in self.first_sense[p]), reverse=True)
        if not counts or counts[0][0] < 3 or (len(counts) > 1 and counts[0][0] < 3 * counts[1][0]):
            return None
        return counts[0][1]

    def lemma(self, word):
        """(lemma, pos, suffix) for a surface word, by WordNet's own detachment rules."""
        # Irregular forms ("won", "began") are left alone: their synonyms would need irregular forms too.
        candidates = [(word, "")]
        for suf, rep in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"),
                         ("ing", ""), ("ing", "e"), ("er", ""), ("est", "")):
            if word.endswith(suf) and len(word) - len(suf) >= 3:
                candidates.append((word[: -len(suf)] + rep, suf))
        for lemma, suffix in candidates:
            p = self.pos_of(lemma)
            if p:
                return lemma, p, suffix
        return None

    def _sense(self, lemma, p):
        off = self.first_sense[p].get(lemma)
        return self.synsets[p].get(off) if off else None

    def dominant(self, lemma, p, share=0.6):
        """Whether the first sense carries most of the word's tagged uses (so a swap keeps the sense)."""
        return self.count.get((lemma, p), 0) >= share * max(1, self.total.get((lemma, p), 0))

    def synonyms(self, lemma, p):
        s = self._sense(lemma, p)
        if not s or lemma in LIGHT or p == "n" or not self.dominant(lemma, p):
            return []
        return [w for w in s[0] if w != lemma and w.isalpha() and not _ROMAN.match(w)
                and (p != "v" or w not in self.irregular)]

    def antonyms(self, lemma, p):
        s = self._sense(lemma, p)
        if not s or lemma in LIGHT:
            return []
        lemmas, ants = s
        out = []
        for src, pos, off, tgt in ants:
            if src != 0 and (lemma not in lemmas or src != lemmas.index(lemma) + 1):
                continue
            target = self.synsets.get(pos, {}).get(off)
            if target and 0 < tgt <= len(target[0]):
                w = target[0][tgt - 1]
                if w.isalpha() and (pos != "v" or w not in self.irregular):
                    out.append(w)
        return out


def inflect(lemma, suffix):
    """`lemma` with the suffix its neighbour had ("stay" + "ed" -> "stayed")."""
    if not suffix:
        return lemma
    if suffix in ("s", "es", "ies"):
        if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
            return lemma[:-1] + "ies"
        return lemma + ("es" if lemma.endswith(("s", "x", "z", "ch", "sh")) else "s")
    if suffix in ("ed", "ied"):
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
            return lemma[:-1] + "ied"
        return lemma + "ed"
    if suffix == "ing":
        return (lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma) + "ing"
    if suffix in ("er", "est"):
        return None  # comparatives: "more X" would be needed; not swapped
    return None
