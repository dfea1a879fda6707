"""Checks on the training data pipeline (stdlib only: runs in CI without torch)."""
import builtins
import collections
import os
import random
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import contrastive  # noqa: E402
import data  # noqa: E402
import wordnet  # noqa: E402

SHARED = Path(os.environ.get("CITELENS_DATA_DIR", Path(__file__).resolve().parents[3] / "shared/data"))
# Files ../shared/data/README.md marks dev-eval or non-commercial: never read while building training data.
NOT_FOR_TRAINING = [
    "multinli_1.0_dev_mismatched", "fever_symmetric", "wice/claim_dev", "oracle_chunks_claim_dev",
    "non_supported_tokens_dev", "attributionbench", "biokalma", "cwq", "webquestions", "simplequestions",
    "annotations_splits_ev2_validation",
]


class WordListsTest(unittest.TestCase):
    def test_months_come_from_the_engines_list_in_the_order_training_always_used(self):
        self.assertEqual(data.MONTHS, ["January", "February", "March", "April", "May", "June", "July", "August",
                                       "September", "October", "November", "December"])

    def test_an_unknown_list_is_a_clear_error(self):
        import word_lists
        with self.assertRaises(KeyError):
            word_lists.load("no_such_list")
        self.assertIn(", while ", word_lists.load("contrast_cues"))


class SwapTest(unittest.TestCase):
    def test_swap_changes_a_fact_the_premise_pins(self):
        rng = random.Random(0)
        prem = "The bridge opened in 1937 and spans 2737 metres."
        hyp = "The bridge opened in 1937."
        new = data._swap(hyp, prem, rng, ["Golden Gate"])
        self.assertIsNotNone(new)
        self.assertNotEqual(new, hyp)
        self.assertNotIn("1937", new)

    def test_no_swap_without_a_shared_fact(self):
        self.assertIsNone(data._swap("a dog runs", "a cat sleeps", random.Random(0), []))

    def test_best_window_finds_the_claims_words(self):
        text = " ".join(["filler"] * 300 + ["Marie Curie won the Nobel Prize"] + ["filler"] * 300)
        win = data._best_window(text, "Marie Curie won a Nobel Prize", words=40)
        self.assertIn("Curie", win)
        self.assertLessEqual(len(win.split()), 40)


class ContrastiveTest(unittest.TestCase):
    def test_each_edit_changes_what_it_should(self):
        rng = random.Random(0)
        s = "The bridge was opened in 1883, after 13 years of construction."
        self.assertEqual(contrastive.drop_clause(s, rng), "The bridge was opened in 1883.")
        neg = contrastive.negate(s, rng)
        self.assertRegex(neg, r"was (not|never) opened")
        self.assertEqual(contrastive.negate("It was not open to cars.", rng), "It was open to cars.")
        # The engine's opposites (crates/citelens-engine/data/antonyms.tsv): a converse such as
        # after / before is never swapped.
        self.assertIn(contrastive.antonym("The river rose after the storm.", rng), ["The river fell after the storm.", "The river dropped after the storm."])
        swapped = contrastive.swap_number(s, s, rng)
        self.assertNotEqual(swapped, s)
        self.assertIsNone(contrastive.antonym("A cat sleeps.", rng))

    def test_pairs_are_labelled_by_edit(self):
        doc = ("The museum opened in 1902, after a long campaign. It was not free to enter until 1950. "
               "Its largest hall holds 3,000 paintings and the oldest ones date from 1400.")
        examples = [(doc, "x", data.ENT, "snli")] * 3 + [("A second passage about a harbour that was built in 1870 by the city.", "y", data.ENT, "snli")]
        out = contrastive.pairs(examples, seed=1, n_each=10)
        labels = {src: lab for _, _, lab, src in out}
        self.assertEqual(labels.get("contrast_drop", data.ENT), data.ENT)
        self.assertEqual(labels.get("contrast_negate", data.CON), data.CON)
        self.assertEqual(labels.get("contrast_addfact", data.NEU), data.NEU)
        self.assertTrue(out)
        for prem, hyp, _, _ in out:
            self.assertNotEqual(prem, hyp)


class WordNetTest(unittest.TestCase):
    def test_inflect_follows_the_replaced_word(self):
        self.assertEqual(wordnet.inflect("stay", "ed"), "stayed")
        self.assertEqual(wordnet.inflect("establish", "ed"), "established")
        self.assertEqual(wordnet.inflect("carry", "s"), "carries")
        self.assertEqual(wordnet.inflect("large", ""), "large")
        self.assertIsNone(wordnet.inflect("big", "er"))

    @unittest.skipUnless(wordnet.available(), "needs Debian's wordnet-base")
    def test_first_sense_synonyms_and_antonyms(self):
        wn = wordnet.WordNet()
        self.assertEqual(wn.lemma("remained"), ("remain", "v", "ed"))
        self.assertIn("stay", wn.synonyms("remain", "v"))
        self.assertIn("small", wn.antonyms("large", "a"))
        self.assertEqual(wn.synonyms("three", "a"), [])  # number words are never swapped
        rng = random.Random(0)
        s = "The tower remained the tallest structure in the world until 1930."
        common = collections.Counter({"stayed": 100})
        self.assertEqual(contrastive.wordnet_swap(s, wn, common, rng, "synonym"),
                         "The tower stayed the tallest structure in the world until 1930.")


@unittest.skipUnless(SHARED.is_dir(), "needs ../shared/data")
class MixTest(unittest.TestCase):
    def test_training_mix_reads_only_train_and_ship_files(self):
        opened = []
        real_open = builtins.open

        def spy(path, *a, **k):
            opened.append(str(path))
            return real_open(path, *a, **k)

        builtins.open = spy
        try:
            mix = data.training_mix(SHARED, seed=13)
        finally:
            builtins.open = real_open
        self.assertGreater(len(mix), 50000)
        for path in opened:
            for banned in NOT_FOR_TRAINING:
                self.assertNotIn(banned, path)
        labels = {e[2] for e in mix}
        self.assertEqual(labels, {data.ENT, data.NEU, data.CON, data.NOT_ENT})

    def test_mix_is_reproducible(self):
        a = data.training_mix(SHARED, seed=13)[:200]
        b = data.training_mix(SHARED, seed=13)[:200]
        self.assertEqual(a, b)



class ComposedFourWayTest(unittest.TestCase):
    GROUPS = [
        ("Two women are embracing while holding packages.", "Two women are holding packages.", "The sisters are hugging goodbye.", "The men are fighting."),
        ("A dog runs through the snow.", "An animal is outside.", "The dog is chasing a ball.", "The dog is asleep indoors."),
        ("A man plays a guitar on a stage.", "A man is playing music.", "The man is famous.", "The man is swimming."),
    ]

    def examples(self):
        out = []
        for prem, e, n, c in self.GROUPS:
            out += [(prem, e, data.ENT, "snli"), (prem, n, data.NEU, "snli"), (prem, c, data.CON, "snli")]
        return out

    def test_each_category_is_built_from_the_right_parts(self):
        rows = data.composed_four_way(self.examples(), random.Random(3), 40)
        by_gold = collections.defaultdict(list)
        for prem, sent, gold, _ in rows:
            by_gold[gold].append((prem, sent))
        self.assertEqual(set(by_gold), {"supportive", "partially_supportive", "contradictory", "irrelevant"})
        ent = {e.rstrip("."): p for p, e, _, _ in self.GROUPS}
        neu = {n.rstrip(".").lower(): p for p, _, n, _ in self.GROUPS}
        con = {c.rstrip(".").lower(): p for p, _, _, c in self.GROUPS}
        for prem, sent in by_gold["partially_supportive"]:
            owner = next(p for k, p in neu.items() if k in sent.lower())
            self.assertTrue(prem.startswith(owner), "the neutral fact's own premise is the evidence")
        for prem, sent in by_gold["contradictory"]:
            owner = next(p for k, p in con.items() if k in sent.lower())
            self.assertEqual(prem, owner)
        for prem, sent in by_gold["irrelevant"]:
            self.assertNotEqual(prem, ent[sent.rstrip(".")], "irrelevant evidence is another premise")
        for prem, sent in by_gold["supportive"]:
            self.assertEqual(sum(p in prem for p, _, _, _ in self.GROUPS), 2, "two sources, each backing one fact")

    def test_the_second_clause_keeps_a_name_capitalised(self):
        rng = random.Random(0)
        self.assertRegex(data.join_claims("A man sings.", "The crowd cheers.", rng), r"^A man sings(, and |; | and |, while )the crowd cheers\.$")
        self.assertIn("Maria", data.join_claims("A man sings.", "Maria dances.", rng))

    def test_too_few_groups_give_nothing(self):
        self.assertEqual(data.composed_four_way(self.examples()[:3], random.Random(0), 10), [])


if __name__ == "__main__":
    unittest.main()
