"""The evidence head: is this sentence of a long document evidence for the claim (it states, partly
states or denies it), or not? LAB's post-hoc retrieval needs a reranker that knows a methods sentence
naming the same drugs is not evidence; the NLI head reads such sentences as contradictions.

A branch on the shipped encoder, as the four-way head is (training/fourway.py): the top `--branch`
layers copied with a pooler and a 2-label classifier of their own, trained while everything below
stays frozen. The NLI and four-way outputs do not move (export.py re-exports them byte for byte).

Rows come from `citelens pairs --dataset evidence-inference|lab-wice` (round one of the engine: the
BM25 candidates of each claim, labelled by the annotated evidence): Evidence Inference train articles
and WiCE's token-level train claims (both train+ship). The epoch is chosen on Evidence Inference
validation by precision at 1 (the candidate ranked first is evidence), never on WiCE dev.

    python training/evidence.py --pairs training/out_evidence/pairs --out training/out_evidence
"""
import argparse
import copy
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import fourway  # noqa: E402
import train  # noqa: E402
from model import Config, CrossEncoder  # noqa: E402

HERE = Path(__file__).parent
LABELS = ["not_evidence", "evidence"]


def read_rows(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        rows.append((r["premise"], r["hypothesis"], LABELS.index(r["gold"])))
    return rows


def precision_at_1(logits, rows):
    """Per claim (rows grouped by hypothesis): is the best-scored candidate evidence? Claims with no
    evidence among their rows are left out (no ranking can be right)."""
    score = logits.float().log_softmax(-1)[:, 1].tolist()
    by_claim = defaultdict(list)
    for s, (_, h, y) in zip(score, rows):
        by_claim[h].append((s, y))
    hits = [max(c)[1] for c in by_claim.values() if any(y for _, y in c)]
    return sum(hits) / max(1, len(hits))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", required=True, help="folder with ei_train, ei_validation and wice_train .jsonl from `citelens pairs`")
    ap.add_argument("--init", default=str(HERE / "out_shipped/model.pt"), help="the shipped NLI weights (training/from_onnx.py makes them)")
    ap.add_argument("--out", default=str(HERE / "out_evidence"))
    ap.add_argument("--branch", type=int, default=1, help="top encoder layers copied into the branch (1 keeps the int8 model under 30 MB)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--wice-copies", type=int, default=3, help="WiCE rows repeated: a tenth of Evidence Inference's, and the only web prose")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    pairs, out = Path(args.pairs), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    base_dir = train.base_model_dir(HERE / ".cache")
    cfg = json.loads((base_dir / "config.json").read_text())
    base = CrossEncoder(Config(cfg))
    base.load_state_dict(torch.load(args.init, map_location="cpu"))
    model = fourway.FourWay(base, args.branch, n_labels=len(LABELS), prefix="evidence").to(fourway.DEVICE)
    tok = train.make_tokenizer(HERE.parent / "models/citelens-nli-minilm/tokenizer.json")
    max_len, max_hyp = 128, 80

    ei = read_rows(pairs / "ei_train.jsonl")
    wice = read_rows(pairs / "wice_train.jsonl")
    train_rows = ei + wice * args.wice_copies
    dev_rows = read_rows(pairs / "ei_validation.jsonl")
    sources = {"evidence_inference_train": len(ei), "wice_tokens_train": len(wice), "wice_copies": args.wice_copies}
    print(f"[evidence] training rows {len(train_rows)}: {sources}; dev rows {len(dev_rows)}", flush=True)

    model.eval()
    as_four = lambda rows: [(p, h, None, None) for p, h, _ in rows]  # noqa: E731 (encode_trunk's row shape)
    feats = fourway.encode_trunk(model, tok, as_four(train_rows), max_len, max_hyp)
    dev_feats = fourway.encode_trunk(model, tok, as_four(dev_rows), max_len, max_hyp)
    print(f"[evidence] trunk features in {time.time() - t0:.0f}s", flush=True)
    y = torch.tensor([r[2] for r in train_rows])

    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    steps = args.epochs * ((len(train_rows) + 31) // 32)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    batches = fourway.bucketed_batches(feats, 32, rng)
    del feats
    best = (-1.0, None, 0)
    for epoch in range(args.epochs):
        model.train()
        rng.shuffle(batches)
        total = 0.0
        for ids, x, bias in batches:
            dev = fourway.DEVICE
            loss = torch.nn.functional.cross_entropy(model.head(x.to(dev).float(), bias.to(dev).float()).float(), y[ids].to(dev))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            total += loss.item() * len(ids)
        p1 = precision_at_1(fourway.logits_of(model, dev_feats), dev_rows)
        print(f"[evidence] epoch {epoch + 1}: loss {total / len(train_rows):.4f}  EI validation P@1 {p1:.4f}  ({time.time() - t0:.0f}s)", flush=True)
        if p1 > best[0]:
            best = (p1, copy.deepcopy(model.state_dict()), epoch + 1)
    model.load_state_dict(best[1])
    dev_logits = fourway.logits_of(model, dev_feats)
    temperature = train.fit_temperature(dev_logits, torch.tensor([r[2] for r in dev_rows]))
    torch.save(model.state_for_export(), out / "evidence.pt")
    meta = {"branch": args.branch, "start_layer": model.start, "epochs": args.epochs, "kept_epoch": best[2], "lr": args.lr, "sources": sources,
            "ei_validation_p_at_1": best[0], "temperature": temperature, "init": str(args.init), "seconds": round(time.time() - t0)}
    (out / "evidence_meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"[evidence] kept epoch {best[2]} (P@1 {best[0]:.4f}), temperature {temperature}; wrote {out / 'evidence.pt'}", flush=True)


if __name__ == "__main__":
    main()
