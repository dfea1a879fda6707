"""Checks on training/feature_auc.py (skipped where scikit-learn is not installed)."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import feature_auc
except ImportError:  # the training extras are not installed
    feature_auc = None


@unittest.skipIf(feature_auc is None, "scikit-learn is not installed")
class FeatureAucTest(unittest.TestCase):
    def test_names_are_the_engines(self):
        names = feature_auc.feature_names()
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(names[:4], ["four_way_supportive", "four_way_partially_supportive", "four_way_contradictory", "four_way_irrelevant"])

    def test_a_separating_feature_ranks_first_and_other_categories_are_ignored(self):
        rows = [
            {"gold": "supportive", "features": [0.1, 0.5]},
            {"gold": "supportive", "features": [0.2, 0.4]},
            {"gold": "contradictory", "features": [0.9, 0.5]},
            {"gold": "contradictory", "features": [0.8, 0.4]},
            {"gold": "irrelevant", "features": [5.0, 9.0]},
        ]
        out = feature_auc.aucs(rows, ["sharp", "flat"], "supportive", "contradictory")
        self.assertEqual(out[0], ("sharp", 1.0))
        self.assertAlmostEqual(dict(out)["flat"], 0.5)

    def test_one_category_only_gives_nothing(self):
        rows = [{"gold": "supportive", "features": [0.1]}, {"gold": "supportive", "features": [0.3]}]
        self.assertEqual(feature_auc.aucs(rows, ["x"], "supportive", "contradictory"), [])


if __name__ == "__main__":
    unittest.main()
