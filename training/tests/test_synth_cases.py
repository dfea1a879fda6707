"""Checks on citelens_synth's conversion to the cases format and on the combiner's decision rule
(stdlib only, except the combiner checks, which run where numpy is installed)."""
import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import synth_cases  # noqa: E402

SHARED = Path(os.environ.get("CITELENS_DATA_DIR", Path(__file__).resolve().parents[3] / "shared/data"))

try:
    import numpy  # noqa: F401

    import combiner
except ImportError:  # the training extras are not installed: the combiner checks are skipped
    combiner = None


class OverallTest(unittest.TestCase):
    def test_caqa_rule(self):
        self.assertEqual(synth_cases.overall(["supportive", "supportive"]), "supportive")
        self.assertEqual(synth_cases.overall(["supportive", "contradictory"]), "contradictory")
        self.assertEqual(synth_cases.overall(["irrelevant", "partially_supportive"]), "partially_supportive")
        self.assertEqual(synth_cases.overall(["irrelevant", "supportive"]), "partially_supportive")
        self.assertEqual(synth_cases.overall(["irrelevant", "irrelevant"]), "irrelevant")


class ClaimCaseTest(unittest.TestCase):
    REC = {"id": "r1", "question": "Q?", "citations": [{"id": "1", "text": "A."}, {"id": "2", "text": "B."}]}

    def test_a_claim_becomes_a_one_sentence_answer_with_its_markers(self):
        c = synth_cases.claim_case(self.REC, {"text": "Both say so.", "cites": ["1", "2"], "label": "supportive"})
        self.assertEqual(c["answer"], "Both say so [1][2].")
        self.assertEqual(c["gold_sentences"], ["supportive"])
        self.assertEqual(c["citations"], self.REC["citations"])

    def test_an_unknown_label_is_refused(self):
        with self.assertRaises(ValueError):
            synth_cases.claim_case(self.REC, {"text": "x", "cites": ["1"], "label": "maybe"})


class HeadSelectionTest(unittest.TestCase):
    def test_the_share_is_stable_grouped_by_record_and_about_its_size(self):
        ids = [f"syn-{p}-{i:03d}" for p in range(1, 13) for i in range(1, 40)]
        kept = [r for r in ids if synth_cases.in_head_selection(r)]
        self.assertEqual(kept, [r for r in ids if synth_cases.in_head_selection(r)])  # no randomness
        share = len(kept) / len(ids)
        self.assertGreater(share, 0.10)
        self.assertLess(share, 0.30)
        self.assertFalse(any(synth_cases.in_head_selection(r, 0) for r in ids))  # zero tenths keeps none

    @unittest.skipUnless((SHARED / "citelens_synth/train_ids.txt").exists(), "citelens_synth not found")
    def test_both_sides_of_the_real_train_split_are_used(self):
        train = (SHARED / "citelens_synth/train_ids.txt").read_text().split()
        kept = sum(synth_cases.in_head_selection(r) for r in train)
        self.assertTrue(0 < kept < len(train))


@unittest.skipUnless((SHARED / "citelens_synth/dev_ids.txt").exists(), "citelens_synth not found")
class SplitTest(unittest.TestCase):
    def test_the_split_keeps_dev_records_out_of_train(self):
        with tempfile.TemporaryDirectory() as d:
            counts = synth_cases.split(SHARED / "citelens_synth", d)
            self.assertEqual(counts["dev_answers"], len((SHARED / "citelens_synth/dev_ids.txt").read_text().split()))
            self.assertEqual(counts["dev_claims"], 8 * counts["dev_answers"])
            ids = lambda f: {json.loads(l)["id"] for l in Path(d, f).read_text().splitlines()}  # noqa: E731
            self.assertFalse(ids("train_answers.jsonl") & ids("dev_answers.jsonl"))
            self.assertFalse(ids("train_claims.jsonl") & ids("dev_answers.jsonl"))
            selection = ids("train_head_selection_answers.jsonl")
            self.assertTrue(selection and selection < ids("train_answers.jsonl"))
            self.assertEqual(ids("train_head_selection_claims.jsonl"), selection)


@unittest.skipIf(combiner is None, "numpy not installed")
class CombinerDecisionTest(unittest.TestCase):
    def test_a_priced_flip_moves_a_close_call_off_it(self):
        import numpy as np

        proba = np.array([[0.40, 0.25, 0.30, 0.05]])  # supportive ahead, contradiction close
        self.assertEqual(combiner.decide(proba, combiner.costs_matrix(1.0))[0], 0)
        self.assertEqual(combiner.decide(proba, combiner.costs_matrix(4.0))[0], 1)

    def test_figures_count_flips_both_ways(self):
        f = combiner.figures([0, 2, 1, 3], [2, 0, 1, 3])
        self.assertEqual(f["flips"], 2)
        self.assertEqual(f["accuracy"], 50.0)


if __name__ == "__main__":
    unittest.main()
