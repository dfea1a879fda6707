"""A tiny MPNet-type cross-encoder (random weights, two layers, hidden 32) for the tests that check
that the Rust side reads any cross-encoder: no `token_type_ids` input, the RoBERTa-style pair format
from `tokenizer.json`'s post-processor, pad id 1. Built with the same graph builder as the worker's
large model (`mpnet.py`), so what the tests pass is the graph that model ships with.

    python training/tiny_mpnet_fixture.py      # writes tests/fixtures/tiny_mpnet/

`expected.json` holds each test pair's token ids (Python `tokenizers`) and logits (onnxruntime); when
`transformers` is importable the logits are also checked against its MPNetForSequenceClassification.
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

sys.path.insert(0, str(Path(__file__).parent))
from mpnet import MpnetGraph, save  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "tests/fixtures/tiny_mpnet"
WORDS = ("the museum opens on mondays tower was finished in 1889 1925 paris is capital of france a man "
         "plays guitar woman drums water boils at 100 degrees river flows north south city").split()
PAIRS = [
    ("the tower was finished in 1889", "the tower was finished in 1925"),
    ("paris is the capital of france", "paris is in france"),
    ("a man plays guitar", "a woman plays drums"),
    ("water boils at 100 degrees", "the museum opens on mondays"),
    ("the river flows north of the city the river flows south of the city the tower was finished in 1889", "the river flows north"),
]
CFG = {"hidden_size": 32, "num_attention_heads": 4, "num_hidden_layers": 2, "intermediate_size": 64,
       "max_position_embeddings": 66, "relative_attention_num_buckets": 32, "layer_norm_eps": 1e-5,
       "vocab_size": 4 + len(WORDS), "model_type": "mpnet"}


def tokenizer_json():
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for w in WORDS:
        vocab.setdefault(w, len(vocab))
    return {
        "version": "1.0", "truncation": None, "added_tokens": [],
        "padding": {"strategy": {"Fixed": 64}, "direction": "Right", "pad_to_multiple_of": None,
                    "pad_id": 1, "pad_type_id": 0, "pad_token": "<pad>"},
        "normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                           "trim_offsets": True, "add_prefix_space": False},
        "decoder": None,
        "model": {"type": "WordLevel", "unk_token": "<unk>", "vocab": vocab},
    }


def random_state(rng):
    h, f, v = CFG["hidden_size"], CFG["intermediate_size"], CFG["vocab_size"]
    g = lambda *shape: (rng.standard_normal(shape) * 0.2).astype(np.float32)
    s = {"mpnet.embeddings.word_embeddings.weight": g(v, h),
         "mpnet.embeddings.position_embeddings.weight": g(CFG["max_position_embeddings"], h),
         "mpnet.embeddings.LayerNorm.weight": 1 + g(h), "mpnet.embeddings.LayerNorm.bias": g(h),
         "mpnet.encoder.relative_attention_bias.weight": g(CFG["relative_attention_num_buckets"], CFG["num_attention_heads"]),
         "classifier.dense.weight": g(h, h), "classifier.dense.bias": g(h),
         "classifier.out_proj.weight": g(3, h), "classifier.out_proj.bias": g(3)}
    for i in range(CFG["num_hidden_layers"]):
        p = f"mpnet.encoder.layer.{i}"
        for name in ("q", "k", "v", "o"):
            s[f"{p}.attention.attn.{name}.weight"], s[f"{p}.attention.attn.{name}.bias"] = g(h, h), g(h)
        s[f"{p}.intermediate.dense.weight"], s[f"{p}.intermediate.dense.bias"] = g(f, h), g(f)
        s[f"{p}.output.dense.weight"], s[f"{p}.output.dense.bias"] = g(h, f), g(h)
        for ln in ("attention.LayerNorm", "output.LayerNorm"):
            s[f"{p}.{ln}.weight"], s[f"{p}.{ln}.bias"] = 1 + g(h), g(h)
    return s


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    state = random_state(np.random.default_rng(7))
    save(MpnetGraph(dict(state), CFG, quantize=False).build(), OUT / "model.onnx")
    (OUT / "tokenizer.json").write_text(json.dumps(tokenizer_json()))
    (OUT / "config.json").write_text(json.dumps({
        "name": "tiny-mpnet-test", "labels": ["entailment", "neutral", "contradiction"],
        "max_length": 24, "max_hypothesis_tokens": 10, "temperature": 1.0, "window_overlap_tokens": 4,
        "model_file": "model.onnx", "tokenizer_file": "tokenizer.json"}, indent=2) + "\n")
    tok = Tokenizer.from_file(str(OUT / "tokenizer.json"))
    tok.no_padding()
    session = ort.InferenceSession(str(OUT / "model.onnx"))
    rows = []
    for p, h in PAIRS:
        ids = tok.encode(p, h).ids
        if len(ids) > 24:
            continue  # windowed in Rust; checked there by structure, not against Python
        arr = np.array([ids], np.int64)
        logits = session.run(None, {"input_ids": arr, "attention_mask": np.ones_like(arr)})[0][0]
        rows.append({"premise": p, "hypothesis": h, "input_ids": ids, "logits": [float(x) for x in logits]})
    try:
        import torch
        from transformers import MPNetConfig, MPNetForSequenceClassification
        cfg = MPNetConfig(vocab_size=CFG["vocab_size"], hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                          intermediate_size=64, max_position_embeddings=66, layer_norm_eps=1e-5, num_labels=3, pad_token_id=1)
        ref = MPNetForSequenceClassification(cfg).eval()
        ref.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()}, strict=False)
        with torch.no_grad():
            worst = max(np.abs(ref(input_ids=torch.tensor([r["input_ids"]])).logits.numpy()[0] - r["logits"]).max() for r in rows)
        print(f"onnxruntime vs transformers MPNetForSequenceClassification: max |logit difference| {worst:.6f}")
        assert worst < 1e-4
    except ImportError:
        print("transformers is not installed: the graph was not checked against MPNetForSequenceClassification")
    (OUT / "expected.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {OUT}: {len(rows)} pairs, model.onnx {(OUT / 'model.onnx').stat().st_size} bytes")


if __name__ == "__main__":
    main()
