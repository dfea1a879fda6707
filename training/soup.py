"""Average the weights of two checkpoints of the same model (a "model soup", Wortsman et al. 2022)
and refit the temperature on the held-out pairs.

    python training/soup.py training/out/stage1.pt training/out2/model.pt --alpha 0.5 --out training/out3
"""
import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402
import train  # noqa: E402
from model import Config, CrossEncoder  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--alpha", type=float, default=0.5, help="weight of the first checkpoint")
    ap.add_argument("--meta", required=True, help="train_meta.json of a run (config, lengths, seed)")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data"))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    meta = json.loads(Path(args.meta).read_text())
    a, b = torch.load(args.a, map_location="cpu"), torch.load(args.b, map_location="cpu")
    state = {k: args.alpha * a[k] + (1 - args.alpha) * b[k] for k in a}
    model = CrossEncoder(Config(meta["config"]))
    model.load_state_dict(state)
    base = train.base_model_dir(Path(__file__).parent / ".cache")
    tok = train.make_tokenizer(base / "tokenizer.json")
    held = data.held_out(data.training_mix(args.data, seed=meta["args"]["seed"]))
    logits = train.predict_logits(model, tok, [(p, h) for p, h, _, _ in held], meta["max_len"], meta["max_hyp"], "cpu")
    y = torch.tensor([e[2] for e in held])
    meta.update({"temperature": train.fit_temperature(logits, y), "held_out_acc": (logits.argmax(-1) == y).float().mean().item(),
                 "soup": {"a": args.a, "b": args.b, "alpha": args.alpha}})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(state, out / "model.pt")
    (out / "train_meta.json").write_text(json.dumps(meta, indent=2))
    print(f"[soup] alpha {args.alpha}: held-out acc {meta['held_out_acc']:.4f}, temperature {meta['temperature']}")


if __name__ == "__main__":
    main()
