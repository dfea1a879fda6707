"""Export the trained cross-encoder: fp32 ONNX (kept out of git), weight-only int8 ONNX (shipped),
tokenizer, config, and the parity fixtures the Rust tests read.

    python training/export.py            # reads training/out, writes models/citelens-nli-minilm
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402
import onnx_graph  # noqa: E402
import train  # noqa: E402
from model import Config, CrossEncoder  # noqa: E402

HERE = Path(__file__).parent
REPO = HERE.parent
MODEL_DIR = REPO / "models/citelens-nli-minilm"
FIXTURES = REPO / "tests/fixtures"
MAX_HYP_TOKENS = 80  # inference limit; a longer claim is an error, never truncated
WINDOW_OVERLAP = 20


def ort_logits(session, enc, rows):
    ii, m, tt, _ = train.collate(enc, None, rows, "cpu")
    return session.run(None, {"input_ids": ii.numpy(), "attention_mask": m.numpy(), "token_type_ids": tt.numpy()})[0]


def parity_pairs():
    """Hand-written pairs plus (citation, answer) pairs from the papers' worked examples."""
    pairs = [tuple(x) for x in json.loads((FIXTURES / "handmade_pairs.json").read_text())]
    for line in (REPO.parent / "shared/data/paper_examples/paper_examples.jsonl").read_text().splitlines():
        ex = json.loads(line)
        for c in ex.get("citations", []):
            if c.get("text"):
                pairs.append((c["text"], ex["answer"]))
    return pairs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default=str(HERE / "out"))
    ap.add_argument("--data", default=str(REPO.parent / "shared/data"))
    ap.add_argument("--model-dir", default=str(MODEL_DIR), help="where the int8 model, tokenizer and config go")
    ap.add_argument("--fixtures", default=str(FIXTURES), help="where the parity fixtures go (a scratch folder when screening)")
    ap.add_argument("--fourway", help="a training/fourway.py run: its branch becomes the model's second output")
    ap.add_argument("--evidence", help="a training/evidence.py run: its branch becomes the model's `evidence` output")
    ap.add_argument("--heads", help="a training/multitask.py run (heads.pt, heads_meta.json): the whole model, trunk and three heads")
    args = ap.parse_args()
    model_dir, fixtures = Path(args.model_dir), Path(args.fixtures)
    fixtures.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    run = Path(args.run)
    if args.heads:
        meta = json.loads((Path(args.heads) / "heads_meta.json").read_text())
    elif (run / "train_meta.json").exists():
        meta = json.loads((run / "train_meta.json").read_text())
    else:
        # A checkpoint rebuilt from the shipped ONNX (from_onnx.py): the shipped config says the rest.
        shipped = json.loads((MODEL_DIR / "config.json").read_text())
        meta = {"config": json.loads((train.base_model_dir(HERE / ".cache") / "config.json").read_text()),
                "max_len": shipped["max_length"], "temperature": shipped["temperature"]}
    cfg = meta["config"]
    model = CrossEncoder(Config(cfg))
    four_meta = None
    evidence_meta = None
    if args.heads:
        # The trunk and NLI head under CrossEncoder's names; the other heads ride along in `state`.
        heads = torch.load(Path(args.heads) / "heads.pt", map_location="cpu")
        model.load_state_dict({k: v for k, v in heads.items() if not k.startswith(("four.", "evidence."))})
        state = dict(heads)
        four_meta = {"temperature": meta["four_way_temperature"]}
        evidence_meta = {"temperature": meta["evidence_temperature"]}
    else:
        model.load_state_dict(torch.load(run / "model.pt", map_location="cpu"))
        state = dict(model.state_dict())
    model.eval()
    if args.fourway:
        state.update(torch.load(Path(args.fourway) / "fourway.pt", map_location="cpu"))
        four_meta = json.loads((Path(args.fourway) / "fourway_meta.json").read_text())
    if args.evidence:
        state.update(torch.load(Path(args.evidence) / "evidence.pt", map_location="cpu"))
        evidence_meta = json.loads((Path(args.evidence) / "evidence_meta.json").read_text())

    fp32 = onnx_graph.build(state, cfg, quantize=False)
    int8 = onnx_graph.build(state, cfg, quantize=True)
    (run / "model.fp32.onnx").write_bytes(fp32.SerializeToString())
    model_dir.mkdir(parents=True, exist_ok=True)
    int8_bytes = int8.SerializeToString()
    (model_dir / "model.onnx").write_bytes(int8_bytes)
    print(f"[export] int8 model {len(int8_bytes) / 1e6:.1f} MB, fp32 {len(fp32.SerializeToString()) / 1e6:.1f} MB")

    base = train.base_model_dir(HERE / ".cache")
    tok_json = json.loads((base / "tokenizer.json").read_text())
    tok_json["truncation"] = None  # citelens truncates the premise itself and never the hypothesis
    tok_json["padding"] = None
    (model_dir / "tokenizer.json").write_text(json.dumps(tok_json, ensure_ascii=False))
    config = {
        "name": "citelens-nli-minilm",
        "labels": ["entailment", "neutral", "contradiction"],
        "max_length": meta["max_len"],
        "max_hypothesis_tokens": MAX_HYP_TOKENS,
        "temperature": meta["temperature"],
        "window_overlap_tokens": WINDOW_OVERLAP,
        "limits": {"max_premise_chars": 100000, "max_hypothesis_chars": 2000, "max_windows": 400, "max_batch": 16},
        "model_file": "model.onnx",
        "tokenizer_file": "tokenizer.json",
        "model_sha256": hashlib.sha256(int8_bytes).hexdigest(),
    }
    if four_meta:
        config["four_way_labels"] = ["supportive", "partially_supportive", "contradictory", "irrelevant"]
        config["four_way_temperature"] = four_meta["temperature"]
    if evidence_meta:
        config["evidence_labels"] = ["not_evidence", "evidence"]
        config["evidence_temperature"] = evidence_meta["temperature"]
    if args.heads:
        # The sentence head was trained on `citelens pairs --sentence-pairs selected`: the engine asks for the same.
        config["sentence_pairs"] = "selected"
    (model_dir / "config.json").write_text(json.dumps(config, indent=2) + "\n")

    tok = train.make_tokenizer(model_dir / "tokenizer.json")
    s32 = ort.InferenceSession(fp32.SerializeToString(), providers=["CPUExecutionProvider"])
    # onnxruntime's graph optimizer fuses DequantizeLinear+MatMul into a kernel that also quantizes the
    # activations, which moves logits by ~0.09; with optimizations off it computes exactly the
    # dequantized weights (matches an fp32 graph of those weights within 1e-5), so that is the oracle.
    plain = ort.SessionOptions()
    plain.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    s8 = ort.InferenceSession(int8_bytes, plain, providers=["CPUExecutionProvider"])

    # 1. Parity fixture: >= 50 pairs with token ids, PyTorch fp32 logits and onnxruntime int8 logits.
    pairs = parity_pairs()
    enc = [train.encode_pair(tok, p, h, meta["max_len"], MAX_HYP_TOKENS) for p, h in pairs]
    with torch.no_grad():
        rows = []
        for i, (p, h) in enumerate(pairs):
            ii, m, tt, _ = train.collate(enc, None, [i], "cpu")
            torch_fp32 = model(ii, m, tt).numpy()[0]
            onnx_fp32 = ort_logits(s32, enc, [i])[0]
            assert np.abs(torch_fp32 - onnx_fp32).max() < 1e-4, (i, torch_fp32, onnx_fp32)
            rows.append({"premise": p, "hypothesis": h, "input_ids": enc[i][0],
                         "fp32_logits": [round(float(x), 6) for x in torch_fp32],
                         "int8_logits": [round(float(x), 6) for x in ort_logits(s8, enc, [i])[0]]})
    with open(fixtures / "parity.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"[export] parity fixture: {len(rows)} pairs")
    (fixtures / "parity_source.json").write_text(json.dumps(
        {"fp32_model": os.path.relpath((run / "model.fp32.onnx").resolve(), REPO), "run": str(run)}, indent=2) + "\n")

    # 2. 500 MNLI-mismatched dev pairs (by pairID; the text stays in ../shared/data): fp32 argmax.
    mm = data.mnli_mismatched(Path(args.data))[:500]
    enc = [train.encode_pair(tok, p, h, meta["max_len"], MAX_HYP_TOKENS) for _, p, h, _ in mm]
    l32 = np.concatenate([ort_logits(s32, enc, list(range(i, min(i + 50, len(enc))))) for i in range(0, len(enc), 50)])
    l8 = np.concatenate([ort_logits(s8, enc, list(range(i, min(i + 50, len(enc))))) for i in range(0, len(enc), 50)])
    agree = float((l32.argmax(-1) == l8.argmax(-1)).mean())
    with open(fixtures / "mnli_mm_dev500_fp32.jsonl", "w") as f:
        for (pid, _, _, _), lg in zip(mm, l32):
            f.write(json.dumps({"pairID": pid, "fp32_argmax": int(lg.argmax()), "fp32_logits": [round(float(x), 5) for x in lg]}) + "\n")
    print(f"[export] onnxruntime int8 vs fp32 argmax agreement on 500 MNLI-mm dev pairs: {agree:.4f}")
    (run / "export_meta.json").write_text(json.dumps({"int8_bytes": len(int8_bytes), "ort_int8_fp32_agreement_500": agree}, indent=2))
    print(f"[export] done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
