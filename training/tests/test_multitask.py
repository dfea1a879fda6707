"""The end-to-end trainer (training/multitask.py) on tiny data: its four-way loss reads label sets and
prices flips, every layer of the trunk trains, and the exported graph (onnx_graph with heads on the
trunk's top, no branch layers) computes what PyTorch computes for all three heads. Skipped where torch,
onnx or onnxruntime are not installed (the checks' python is stdlib only)."""
import random
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

try:
    import numpy as np
    import onnxruntime as ort
    import torch

    import multitask
    import onnx_graph
    from model import Config, CrossEncoder
except ImportError as e:  # pragma: no cover
    torch = None
    missing = str(e)

TINY = {"vocab_size": 60, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 32,
        "max_position_embeddings": 64, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_dropout_prob": 0.0}


def tiny_model(seed=0):
    torch.manual_seed(seed)
    return multitask.MultiHead(CrossEncoder(Config(TINY)))


def batch(rng, n=4, t=9):
    ids = torch.tensor([[101 % 60] + [rng.randrange(1, 60) for _ in range(t - 1)] for _ in range(n)])
    mask = torch.ones_like(ids)
    mask[0, -3:] = 0
    types = torch.zeros_like(ids)
    types[:, t // 2:] = 1
    return ids, mask, types


@unittest.skipIf(torch is None, "torch, onnx and onnxruntime are needed")
class FourLossTest(unittest.TestCase):
    def allowed(self, *sets):
        a = torch.zeros(len(sets), 4, dtype=torch.bool)
        for r, s in enumerate(sets):
            a[r, list(s)] = True
        return a

    def test_a_label_set_is_the_log_of_its_summed_probability(self):
        logits = torch.log(torch.tensor([[0.1, 0.2, 0.3, 0.4]]))
        got = multitask.four_loss(logits, self.allowed({1, 2, 3}), flip_penalty=0.0).item()
        self.assertAlmostEqual(got, -np.log(0.9), places=5)

    def test_a_flip_costs_more_than_another_error_of_the_same_probability(self):
        # Gold supportive, 0.5 on the right class either way; the rest on contradictory (a flip) or on partial.
        flip = torch.log(torch.tensor([[0.5, 0.05, 0.4, 0.05]]))
        other = torch.log(torch.tensor([[0.5, 0.4, 0.05, 0.05]]))
        sup = self.allowed({0})
        self.assertAlmostEqual(multitask.four_loss(flip, sup, 0.0).item(), multitask.four_loss(other, sup, 0.0).item(), places=5)
        self.assertGreater(multitask.four_loss(flip, sup, 0.5).item(), multitask.four_loss(other, sup, 0.5).item() + 0.1)
        # A coarse label (not supportive) is never a flip.
        coarse = self.allowed({1, 2, 3})
        self.assertAlmostEqual(multitask.four_loss(flip, coarse, 0.5).item(), multitask.four_loss(flip, coarse, 0.0).item(), places=5)


@unittest.skipIf(torch is None, "torch, onnx and onnxruntime are needed")
class MultiHeadTest(unittest.TestCase):
    def test_every_layer_trains_from_every_head(self):
        model = tiny_model()
        rng = random.Random(1)
        before = {k: v.clone() for k, v in model.state_dict().items()}
        opt = torch.optim.SGD(model.parameters(), lr=0.5)
        for head, n in (("four", 4), ("nli", 3), ("evidence", 2)):
            ids, mask, types = batch(rng)
            loss = model(ids, mask, types, head).log_softmax(-1)[:, 0].mean() * -1
            opt.zero_grad()
            loss.backward()
            opt.step()
        after = model.state_dict()
        # The key's bias never gets a gradient (a softmax does not change when every score of a query
        # moves by the same amount), and the position and token-type tables only where a batch used them.
        unchanged = [k for k in before if torch.equal(before[k], after[k]) and not k.endswith(".k.bias")]
        # Every other weight of every layer and head moved.
        self.assertFalse([k for k in unchanged if ".layers." in k or "pooler" in k or "classifier" in k], unchanged)

    def test_the_exported_graph_computes_all_three_heads_as_pytorch_does(self):
        model = tiny_model(seed=3).eval()
        state = model.state_for_export()
        self.assertIn("four.classifier.weight", state)
        self.assertFalse([k for k in state if k.startswith("four.layers.")], "the heads sit on the trunk's top")
        graph = onnx_graph.build(state, TINY, quantize=False)
        self.assertEqual([o.name for o in graph.graph.output], ["logits", "four_way", "evidence"])
        session = ort.InferenceSession(graph.SerializeToString(), providers=["CPUExecutionProvider"])
        ids, mask, types = batch(random.Random(2))
        got = session.run(None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy(), "token_type_ids": types.numpy()})
        with torch.no_grad():
            for name, out in zip(("nli", "four", "evidence"), got):
                want = model(ids, mask, types, name).numpy()
                self.assertLess(float(np.abs(want - out).max()), 1e-4, name)


if __name__ == "__main__":
    unittest.main()
