"""The worker's MPNet graph builder (training/mpnet.py): its relative-position buckets against a
line-by-line transcription of transformers' `MPNetEncoder.relative_position_bucket`, and the committed
tiny fixture (tests/fixtures/tiny_mpnet) rebuilt from its seed giving the logits it records. Skipped
where numpy, onnx or onnxruntime are not installed (the checks' python is stdlib only)."""
import json
import math
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

try:
    import numpy as np
    import onnxruntime as ort
    import mpnet
    import tiny_mpnet_fixture
except ImportError as e:  # pragma: no cover
    np = None
    missing = str(e)


def hf_bucket(relative_position, num_buckets=32, max_distance=128):
    """transformers' formula for one relative position (memory minus context), scalar."""
    ret = 0
    n = -relative_position
    num_buckets //= 2
    ret += (n < 0) * num_buckets
    n = abs(n)
    max_exact = num_buckets // 2
    if n < max_exact:
        return ret + n
    val = max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return ret + min(val, num_buckets - 1)


@unittest.skipIf(np is None, "numpy, onnx and onnxruntime are needed")
class MpnetGraphTest(unittest.TestCase):
    def test_relative_buckets_match_transformers_formula(self):
        got = mpnet.relative_buckets(300)
        for i in range(0, 300, 7):
            for j in range(0, 300, 5):
                self.assertEqual(got[i, j], hf_bucket(j - i), (i, j))

    def test_tiny_fixture_is_what_the_builder_makes(self):
        fixture = HERE.parents[1] / "tests/fixtures/tiny_mpnet"
        expected = json.loads((fixture / "expected.json").read_text())
        state = tiny_mpnet_fixture.random_state(np.random.default_rng(7))
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "model.onnx"
            mpnet.save(mpnet.MpnetGraph(dict(state), tiny_mpnet_fixture.CFG, quantize=False).build(), path)
            session = ort.InferenceSession(str(path))
            for row in expected:
                ids = np.array([row["input_ids"]], np.int64)
                logits = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
                np.testing.assert_allclose(logits, row["logits"], atol=1e-5)


if __name__ == "__main__":
    unittest.main()
