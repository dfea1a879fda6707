"""Stage 2 of the end-to-end model: the NLI head refitted on the trained trunk.

Training every layer for the four-way task (training/multitask.py) moves the trunk under the NLI head;
the NLI rows in that run keep it close, not level. This stage freezes the trunk, reads its top first
token once per pair, and trains only the NLI pooler and classifier on SNLI / MultiNLI-matched hard
labels and the MPNet teacher's soft targets (temperature 1.2) on a larger sample of its pool. The
four-way and evidence heads and the trunk do not change, so their figures cannot move.

    python3 training/nli_head.py --run training/out_multitask       # rewrites heads.pt and heads_meta.json
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402
import multitask  # noqa: E402
import train  # noqa: E402
from model import Config, CrossEncoder  # noqa: E402

HERE = Path(__file__).parent


@torch.no_grad()
def first_tokens(model, tok, rows, batch=128):
    """The trunk's top first token per row (the heads' input), in row order."""
    model.eval()
    enc = [train.encode_pair(tok, p, h, multitask.MAX_LEN, multitask.MAX_HYP) for p, h, _ in rows]
    out = torch.zeros(len(rows), model.base.pooler.in_features)
    for b in train.batches(enc, batch, None, shuffle=False):
        ii, m, tt, _ = train.collate(enc, None, b, "cpu")
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out[b] = model.trunk(ii, m, tt).float()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, help="a training/multitask.py run (heads.pt, heads_meta.json)")
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared/data"))
    ap.add_argument("--teacher", type=int, default=40000, help="teacher pool pairs (soft targets)")
    ap.add_argument("--hard", type=int, default=20000, help="SNLI / MultiNLI-matched pairs (hard labels)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    run, root = Path(args.run), Path(args.data)
    t0 = time.time()
    meta = json.loads((run / "heads_meta.json").read_text())
    heads = torch.load(run / "heads.pt", map_location="cpu")
    model = multitask.MultiHead(CrossEncoder(Config(meta["config"])))
    model.base.load_state_dict({k: v for k, v in heads.items() if not k.startswith(("four.", "evidence."))})
    tok = train.make_tokenizer(HERE.parent / "models/citelens-nli-minilm/tokenizer.json")

    pool = data.snli(root) + data.mnli_matched(root)
    rng.shuffle(pool)
    held, pool = pool[:1500], pool[1500:]  # temperature only
    hard = [(p, h, y) for p, h, y, _ in pool[: args.hard]]
    soft = multitask.teacher_rows(root, rng, args.teacher)
    mm = [(p, h, y) for _, p, h, y in data.mnli_mismatched(root)]
    x_hard, x_soft = first_tokens(model, tok, hard), first_tokens(model, tok, soft)
    x_held, x_mm = first_tokens(model, tok, [(p, h, y) for p, h, y, _ in held]), first_tokens(model, tok, mm)
    y_hard = torch.tensor([y for _, _, y in hard])
    t_soft = torch.stack([t for _, _, t in soft])
    y_mm = torch.tensor([y for _, _, y in mm])
    print(f"[nli_head] first tokens of {len(hard) + len(soft) + len(held) + len(mm)} pairs in {time.time() - t0:.0f}s", flush=True)

    head = nn.Sequential(nn.Linear(x_hard.shape[1], x_hard.shape[1]), nn.Tanh(), nn.Dropout(0.1), nn.Linear(x_hard.shape[1], 3))
    head[0].load_state_dict(model.base.pooler.state_dict())
    head[3].load_state_dict(model.base.classifier.state_dict())

    def mm_accuracy():
        head.eval()
        with torch.no_grad():
            return round(float((head(x_mm).argmax(-1) == y_mm).float().mean()), 4)

    curve = [{"epoch": 0, "mnli_mm": mm_accuracy()}]
    print(f"[nli_head] {json.dumps(curve[-1])}", flush=True)
    opt = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=0.01)
    n_h, n_s = len(hard), len(soft)
    for epoch in range(1, args.epochs + 1):
        head.train()
        order = [("h", i) for i in range(0, n_h, 64)] + [("s", i) for i in range(0, n_s, 64)]
        rng.shuffle(order)
        perm_h, perm_s = torch.randperm(n_h), torch.randperm(n_s)
        for kind, i in order:
            if kind == "h":
                ids = perm_h[i:i + 64]
                loss = nn.functional.cross_entropy(head(x_hard[ids]), y_hard[ids])
            else:
                ids = perm_s[i:i + 64]
                loss = -(t_soft[ids] * head(x_soft[ids]).log_softmax(-1)).sum(-1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        curve.append({"epoch": epoch, "mnli_mm": mm_accuracy()})
        print(f"[nli_head] {json.dumps(curve[-1])}", flush=True)
    head.eval()
    with torch.no_grad():
        t_nli = train.fit_temperature(head(x_held), torch.tensor([y for _, _, y, _ in held]))
    heads["pooler.weight"], heads["pooler.bias"] = head[0].weight.detach().clone(), head[0].bias.detach().clone()
    heads["classifier.weight"], heads["classifier.bias"] = head[3].weight.detach().clone(), head[3].bias.detach().clone()
    torch.save(heads, run / "heads.pt")
    meta["temperature"] = t_nli
    meta["nli_head_refit"] = {"teacher": len(soft), "hard": len(hard), "epochs": args.epochs, "lr": args.lr, "curve": curve,
                              "seconds": round(time.time() - t0)}
    (run / "heads_meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"[nli_head] temperature {t_nli}; wrote {run / 'heads.pt'} in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
