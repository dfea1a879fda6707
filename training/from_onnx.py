"""A training checkpoint from a shipped int8 ONNX model (its weights dequantized), so a later stage
can start from the model that ships when its fp32 checkpoint is not at hand.

    python training/from_onnx.py --onnx models/citelens-nli-minilm/model.onnx --out training/out_shipped/model.pt
"""
import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).parent))
from model import Config, CrossEncoder  # noqa: E402
import train  # noqa: E402


def state_from_onnx(path):
    inits = {re.sub(r"_\d+$", "", t.name): numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}
    out = {}
    for name, arr in inits.items():
        if name.endswith(".weight_q"):
            key = name[: -len("_q")]
            out[key] = torch.from_numpy((arr.astype(np.float32) * inits[key + "_scale"][None, :]).T.copy())
        elif name == "word_q":
            out["word.weight"] = torch.from_numpy(arr.astype(np.float32) * inits["word_scale"][:, None])
        elif name == "classifier" or name.endswith(".classifier"):
            out[name + ".weight"] = torch.from_numpy(arr.T.copy())
        elif name in ("position", "token_type"):
            out[name + ".weight"] = torch.from_numpy(arr.copy())
        elif name.endswith((".bias", ".weight")) and not name.endswith(("_scale", "_zp")):
            out[name] = torch.from_numpy(np.asarray(arr, np.float32).copy())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnx", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--fourway-out", help="also write the four-way branch (fourway.pt, fourway_meta.json) here, for export.py --fourway")
    ap.add_argument("--evidence-out", help="also write the evidence branch (evidence.pt, evidence_meta.json) here, for export.py --evidence")
    args = ap.parse_args()
    base = train.base_model_dir(Path(__file__).parent / ".cache")
    cfg = json.loads((base / "config.json").read_text())
    model = CrossEncoder(Config(cfg))
    state = state_from_onnx(args.onnx)
    want = model.state_dict()
    missing = [k for k in want if k not in state]
    if missing:
        raise SystemExit(f"not in the ONNX file: {missing[:5]}")
    for k, v in want.items():
        if tuple(state[k].shape) != tuple(v.shape):
            raise SystemExit(f"{k}: ONNX {tuple(state[k].shape)} vs model {tuple(v.shape)}")
    model.load_state_dict({k: state[k] for k in want})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.out)
    print(f"wrote {args.out} ({len(want)} tensors)")
    config = json.loads((Path(args.onnx).parent / "config.json").read_text())
    # Each branch a later stage retrains (or keeps) is written back in the shape its export.py flag reads.
    for prefix, stem, where, temperature_key in (("four", "fourway", args.fourway_out, "four_way_temperature"),
                                                 ("evidence", "evidence", args.evidence_out, "evidence_temperature")):
        if where:
            write_branch(state, config, prefix, stem, Path(where), temperature_key, args.onnx)


def write_branch(state, config, prefix, stem, out, temperature_key, onnx_path):
    """The branch's tensors (`<prefix>.` names) as `<stem>.pt`, its temperature as `<stem>_meta.json`."""
    branch = {k: v for k, v in state.items() if k.startswith(prefix + ".")}
    if not branch or temperature_key not in config:
        raise SystemExit(f"the ONNX file has no `{prefix}` branch")
    out.mkdir(parents=True, exist_ok=True)
    torch.save(branch, out / f"{stem}.pt")
    (out / f"{stem}_meta.json").write_text(json.dumps({"temperature": config[temperature_key], "from_onnx": onnx_path}, indent=2) + "\n")
    print(f"wrote {out / (stem + '.pt')} ({len(branch)} tensors)")


if __name__ == "__main__":
    main()
