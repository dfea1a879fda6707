"""The browser model trained end to end: one MiniLM trunk, every layer trained, three heads on its top
layer's first token.

- `four_way` (supportive, partially supportive, contradictory, irrelevant): the engine's whole-sentence
  pairs (`citelens pairs`: the sentence against the cited sentences that share the most words with it, in
  one window) and claim pairs of citelens_synth train, generated CAQA rows, ExpertQA's judged claims, WiCE's
  token-level train claims, Fool Me Twice (gold evidence: supports or refutes; retrieved non-gold
  sentences: partial or irrelevant) and SNLI / MultiNLI-matched pairs. Coarse labels are sets (the loss
  is -log of the set's probability); a flip (supportive for contradictory or back) costs
  `--flip-penalty` more, as -log(1 - P(flipped class)).
- `logits` (NLI: entailment, neutral, contradiction): SNLI / MultiNLI-matched hard labels, and the MPNet
  teacher distilled on a sample of its pool (`../shared/data/teacher`, soft targets at temperature 1.2).
- `evidence` (not evidence, evidence): the engine's round-one candidates of Evidence Inference train
  articles and WiCE token-level train claims (`citelens pairs --dataset evidence-inference|lab-wice`).

Each step is one task's batch of rows of similar length; tasks take turns in proportion to their rows.
The citelens_synth train records that `synth_cases.in_head_selection` keeps apart are never trained on:
they choose the temperature and are the combiner's rows. citelens_synth dev, MultiNLI mismatched and
Evidence Inference validation are printed after every epoch (learning curves) and choose nothing.

    python3 training/multitask.py --pairs training/out_multitask/pairs --init training/out_multitask/shipped/model.pt \
        --evidence-init training/out_multitask/shipped/evidence/evidence.pt --out training/out_multitask
"""
import argparse
import copy
import json
import lzma
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).parent))
import data  # noqa: E402
import synth_cases  # noqa: E402
import train  # noqa: E402
import fourway  # noqa: E402
from fourway import ALLOWED, FOUR  # noqa: E402
from model import Config, CrossEncoder  # noqa: E402

HERE = Path(__file__).parent
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
MAX_LEN, MAX_HYP = 128, 80
TEACHER_TEMPERATURE = 1.2
SUPPORTIVE, CONTRADICTORY = FOUR.index("supportive"), FOUR.index("contradictory")


class MultiHead(nn.Module):
    """The shipped cross-encoder (trunk, NLI pooler and classifier) and two more heads on the trunk's
    top layer. Exported names: the trunk and NLI head as `model.CrossEncoder` names them, the others as
    `four.pooler`, `four.classifier`, `evidence.pooler`, `evidence.classifier` (onnx_graph reads a head
    with no `<prefix>.layers` as one on the trunk's top)."""

    def __init__(self, base: CrossEncoder):
        super().__init__()
        self.base = base
        h = base.pooler.out_features
        self.four_pooler = copy.deepcopy(base.pooler)
        self.four_classifier = nn.Linear(h, len(FOUR))
        self.evidence_pooler = copy.deepcopy(base.pooler)
        self.evidence_classifier = nn.Linear(h, 2)
        self.drop = nn.Dropout(0.1)

    def trunk(self, input_ids, attention_mask, token_type_ids):
        b = self.base
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = b.drop(b.emb_norm(b.word(input_ids) + b.position(pos)[None] + b.token_type(token_type_ids)))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in b.layers:
            x = layer(x, bias)
        return x[:, 0]

    def forward(self, input_ids, attention_mask, token_type_ids, task):
        cls = self.trunk(input_ids, attention_mask, token_type_ids)
        pooler, classifier = {"nli": (self.base.pooler, self.base.classifier),
                              "four": (self.four_pooler, self.four_classifier),
                              "evidence": (self.evidence_pooler, self.evidence_classifier)}[task]
        return classifier(self.drop(torch.tanh(pooler(cls))))

    def state_for_export(self):
        out = {k: v.detach().cpu() for k, v in self.base.state_dict().items()}
        for prefix, pooler, classifier in (("four", self.four_pooler, self.four_classifier),
                                           ("evidence", self.evidence_pooler, self.evidence_classifier)):
            for name, module in (("pooler", pooler), ("classifier", classifier)):
                for k, v in module.state_dict().items():
                    out[f"{prefix}.{name}.{k}"] = v.detach().cpu()
        return out


# ---- rows: (premise, hypothesis, target) per task ------------------------------------------------

def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def four_rows_of_pairs(path, keep=lambda r: True):
    return [(r["premise"], r["hypothesis"], r["gold"]) for r in read_jsonl(path) if r["gold"] in ALLOWED and keep(r)]


def fm2_rows(root, rng, n):
    """Fool Me Twice (train+ship): the claim against its gold evidence (supports / refutes) and against
    a retrieved sentence that is not gold (related, but not the evidence: partial or irrelevant)."""
    out = []
    for split in ("dev", "test"):
        for r in read_jsonl(root / f"extra/fm2_foolmetwice/dataset_{split}.jsonl"):
            gold = " ".join(e["text"] for e in r["gold_evidence"])
            if not gold.strip():
                continue
            out.append((gold, r["text"], "supportive" if r["label"] == "SUPPORTS" else "contradictory"))
            golds = {e["text"] for e in r["gold_evidence"]}
            others = [e["text"] for e in r.get("retrieved_evidence") or [] if e["text"] not in golds and len(e["text"]) > 40]
            if others:
                out.append((rng.choice(others), r["text"], "not_entailed_neutral"))
    rng.shuffle(out)
    return out[:n]


def nli_four_rows(pool, rng, n):
    names = {data.ENT: "supportive", data.NEU: "not_entailed_neutral", data.CON: "contradictory"}
    pool = [r for r in pool if r[2] in names]
    rng.shuffle(pool)
    return [(p, h, names[y]) for p, h, y, _ in pool[:n]]


def teacher_rows(root, rng, n):
    """A sample of the teacher's pool with its soft targets (temperature 1.2)."""
    logits = np.load(root / "teacher/pool_logits.npy").astype(np.float32)
    with lzma.open(root / "teacher/pool.jsonl.xz", "rt", encoding="utf-8") as f:
        pool = [json.loads(line) for line in f]
    ids = rng.sample(range(len(pool)), min(n, len(pool)))
    probs = torch.from_numpy(logits[ids] / TEACHER_TEMPERATURE).softmax(-1)
    return [(pool[i]["p"], pool[i]["h"], probs[k]) for k, i in enumerate(ids)]


def evidence_rows(path, rng=None, n=None):
    rows = [(r["premise"], r["hypothesis"], 1 if r["gold"] == "evidence" else 0) for r in read_jsonl(path)]
    if rng is not None and n is not None and len(rows) > n:
        rows = rng.sample(rows, n)
    return rows


# ---- losses ---------------------------------------------------------------------------------------

def four_loss(logits, allowed, flip_penalty):
    logp = logits.float().log_softmax(-1)
    loss = -(logp.masked_fill(~allowed, float("-inf")).logsumexp(-1))
    if flip_penalty > 0:
        p = logp.exp()
        only_sup = allowed[:, SUPPORTIVE] & (allowed.sum(-1) == 1)
        only_con = allowed[:, CONTRADICTORY] & (allowed.sum(-1) == 1)
        flipped = torch.where(only_sup, p[:, CONTRADICTORY], torch.where(only_con, p[:, SUPPORTIVE], torch.zeros_like(p[:, 0])))
        loss = loss - flip_penalty * torch.log1p(-flipped.clamp(max=1 - 1e-6))
    return loss.mean()


def nli_loss(logits, target):
    """Hard labels (ints, binary not-entailment as 3) or soft targets (rows of 3 probabilities)."""
    logp = logits.float().log_softmax(-1)
    if target.dtype.is_floating_point:
        return -(target * logp).sum(-1).mean()
    return train.loss_fn(logits, target)


# ---- batching -------------------------------------------------------------------------------------

class Task:
    def __init__(self, name, head, rows, tok, batch):
        self.name, self.head, self.rows, self.batch = name, head, rows, batch
        self.enc = [train.encode_pair(tok, p, h, MAX_LEN, MAX_HYP) for p, h, _ in rows]

    def target(self, ids):
        t = [self.rows[i][2] for i in ids]
        if self.head == "four":
            allowed = torch.zeros(len(ids), len(FOUR), dtype=torch.bool)
            for r, g in enumerate(t):
                allowed[r, ALLOWED[g]] = True
            return allowed
        if isinstance(t[0], torch.Tensor):
            return torch.stack(t)
        return torch.tensor(t)

    def batches(self, rng):
        return [(self, b) for b in train.batches(self.enc, self.batch, rng)]


@torch.no_grad()
def logits_of(model, tok, rows, head, batch=64):
    model.eval()
    enc = [train.encode_pair(tok, p, h, MAX_LEN, MAX_HYP) for p, h, *_ in rows]
    n = {"nli": 3, "four": 4, "evidence": 2}[head]
    out = torch.zeros(len(rows), n)
    for b in train.batches(enc, batch, None, shuffle=False):
        ii, m, tt, _ = train.collate(enc, None, b, DEVICE)
        with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=DEVICE == "cpu"):
            out[b] = model(ii, m, tt, head).float().cpu()
    return out


def four_figures(logits, rows):
    pred = logits.argmax(-1).tolist()
    right = sum(p in ALLOWED[g] for p, (_, _, g) in zip(pred, rows))
    flips = sum((g == "supportive" and p == CONTRADICTORY) or (g == "contradictory" and p == SUPPORTIVE) for p, (_, _, g) in zip(pred, rows))
    con = [p for p, (_, _, g) in zip(pred, rows) if g == "contradictory"]
    return {"acc": round(right / max(1, len(rows)), 4), "flips": flips, "n": len(rows),
            "contradictions_found": f"{sum(p == CONTRADICTORY for p in con)}/{len(con)}"}


def precision_at_1(logits, rows):
    score = logits.float().log_softmax(-1)[:, 1].tolist()
    by_claim = defaultdict(list)
    for s, (_, h, y) in zip(score, rows):
        by_claim[h].append((s, y))
    hits = [max(c)[1] for c in by_claim.values() if any(y for _, y in c)]
    return round(sum(hits) / max(1, len(hits)), 4)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", required=True, help="folder written by training/multitask.sh (citelens pairs)")
    ap.add_argument("--init", required=True, help="the shipped weights (training/from_onnx.py)")
    ap.add_argument("--evidence-init", help="the shipped evidence branch (from_onnx.py --evidence-out): its pooler and classifier start the evidence head")
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared/data"))
    ap.add_argument("--out", default=str(HERE / "out_multitask"))
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--cases-repeat", type=int, default=2, help="times each citelens_synth train row enters an epoch")
    ap.add_argument("--caqa", type=int, default=4000)
    ap.add_argument("--fm2", type=int, default=3000)
    ap.add_argument("--nli-four", type=int, default=3000, help="SNLI/MultiNLI-matched pairs for the four-way head")
    ap.add_argument("--nli-hard", type=int, default=6000, help="SNLI/MultiNLI-matched pairs for the NLI head (hard labels)")
    ap.add_argument("--teacher", type=int, default=12000, help="teacher pool pairs for the NLI head (soft targets)")
    ap.add_argument("--evidence", type=int, default=5000, help="Evidence Inference train pairs for the evidence head")
    ap.add_argument("--flip-penalty", type=float, default=0.5)
    ap.add_argument("--limit", type=int, default=0, help="rows per task (a smoke test on tiny data)")
    ap.add_argument("--eval-limit", type=int, default=0, help="rows per evaluation set (0: all)")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    rng = random.Random(args.seed)
    root, pairs, out = Path(args.data), Path(args.pairs), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    cfg = json.loads((train.base_model_dir(HERE / ".cache") / "config.json").read_text())
    base = CrossEncoder(Config(cfg))
    base.load_state_dict(torch.load(args.init, map_location="cpu"))
    model = MultiHead(base)
    if args.evidence_init:
        ev = torch.load(args.evidence_init, map_location="cpu")
        model.evidence_pooler.load_state_dict({"weight": ev["evidence.pooler.weight"], "bias": ev["evidence.pooler.bias"]})
        model.evidence_classifier.load_state_dict({"weight": ev["evidence.classifier.weight"], "bias": ev["evidence.classifier.bias"]})
    model = model.to(DEVICE)
    tok = train.make_tokenizer(HERE.parent / "models/citelens-nli-minilm/tokenizer.json")

    def trained_record(r):
        return not synth_cases.in_head_selection(r.get("record"))

    def selection_record(r):
        return synth_cases.in_head_selection(r.get("record"))

    cut = (lambda rows: rows[: args.limit]) if args.limit else (lambda rows: rows)
    ecut = (lambda rows: rows[: args.eval_limit]) if args.eval_limit else (lambda rows: rows)
    nli_pool = data.snli(root) + data.mnli_matched(root)
    rng.shuffle(nli_pool)
    nli_held, nli_pool = nli_pool[:1500], nli_pool[1500:]
    cases = []
    for kind in ("answers", "claims"):
        cases += four_rows_of_pairs(pairs / f"cases_train_{kind}.jsonl", trained_record)
    four = cases * args.cases_repeat
    four += four_rows_of_pairs(pairs / "caqa_train.jsonl")[: args.caqa]
    for f in sorted(pairs.glob("expertqa_train_*.jsonl")):
        four += [(data._best_window(p, h), h, g) for p, h, g in four_rows_of_pairs(f)]
    four += [(p, h, g) for p, h, g, _ in fourway.wice_rows(root)]
    four += fm2_rows(root, rng, args.fm2)
    four += nli_four_rows(nli_pool[: len(nli_pool) // 2], rng, args.nli_four)
    nli = [(p, h, y) for p, h, y, _ in nli_pool[len(nli_pool) // 2:][: args.nli_hard]]
    distilled = teacher_rows(root, rng, args.teacher)
    evidence = evidence_rows(pairs / "ei_train.jsonl", rng, args.evidence) + evidence_rows(pairs / "wice_train.jsonl")
    tasks = [Task("four", "four", cut(four), tok, args.batch), Task("nli", "nli", cut(nli), tok, args.batch),
             Task("teacher", "nli", cut(distilled), tok, args.batch), Task("evidence", "evidence", cut(evidence), tok, args.batch)]
    evals = {
        "synth_dev_answers": (four_rows_of_pairs(pairs / "cases_dev_answers.jsonl"), "four"),
        "synth_dev_claims": (four_rows_of_pairs(pairs / "cases_dev_claims.jsonl"), "four"),
        "synth_selection": (sum((four_rows_of_pairs(pairs / f"cases_train_{k}.jsonl", selection_record) for k in ("answers", "claims")), []), "four"),
        "mnli_mm": ([(p, h, y) for _, p, h, y in data.mnli_mismatched(root)], "nli"),
        "ei_validation": (evidence_rows(pairs / "ei_validation.jsonl"), "evidence"),
    }
    evals = {k: (ecut(v), head) for k, (v, head) in evals.items()}
    print(f"[multitask] rows: four {len(tasks[0].rows)} (cases {len(cases)} x {args.cases_repeat}), nli {len(tasks[1].rows)}, "
          f"teacher {len(tasks[2].rows)}, evidence {len(tasks[3].rows)}; tokenized in {time.time() - t0:.0f}s", flush=True)

    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    per_epoch = sum(len(t.batches(random.Random(0))) for t in tasks)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * per_epoch + 1, pct_start=0.06,
                                                anneal_strategy="linear")
    curve = []

    def evaluate(epoch, losses):
        fig = {"epoch": epoch, "losses": losses, "seconds": round(time.time() - t0)}
        for name, (rows, head) in evals.items():
            lg = logits_of(model, tok, rows, head)
            if head == "four":
                fig[name] = four_figures(lg, rows)
            elif head == "nli":
                fig[name] = round(float((lg.argmax(-1) == torch.tensor([r[2] for r in rows])).float().mean()), 4)
            else:
                fig[name] = {"p_at_1": precision_at_1(lg, rows)}
        curve.append(fig)
        print(f"[multitask] {json.dumps(fig)}", flush=True)

    for epoch in range(1, args.epochs + 1):
        model.train()
        batches = [b for t in tasks for b in t.batches(rng)]
        rng.shuffle(batches)
        sums, counts = defaultdict(float), defaultdict(int)
        step_t = time.time()
        for step, (task, ids) in enumerate(batches):
            ii, m, tt, _ = train.collate(task.enc, None, ids, DEVICE)
            target = task.target(ids).to(DEVICE)
            with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=DEVICE == "cpu"):
                logits = model(ii, m, tt, task.head)
            if task.head == "four":
                loss = four_loss(logits, target, args.flip_penalty)
            elif task.head == "nli":
                loss = nli_loss(logits, target)
            else:
                loss = nn.functional.cross_entropy(logits.float(), target)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            sums[task.name] += loss.item()
            counts[task.name] += 1
            if step % 100 == 0:
                rate = (step + 1) / (time.time() - step_t)
                print(f"[multitask] epoch {epoch} step {step}/{len(batches)} {rate:.2f} steps/s "
                      + " ".join(f"{k} {sums[k] / counts[k]:.4f}" for k in sums), flush=True)
        evaluate(epoch, {k: round(sums[k] / counts[k], 4) for k in sums})
        torch.save(model.state_for_export(), out / f"heads_epoch{epoch}.pt")

    # Temperatures: NLI on the held-out SNLI/MultiNLI pairs; four-way on the selection records;
    # evidence on Evidence Inference validation. The last epoch is what ships (dev chooses nothing).
    nli_lg = logits_of(model, tok, [(p, h, y) for p, h, y, _ in nli_held], "nli")
    t_nli = train.fit_temperature(nli_lg, torch.tensor([y for _, _, y, _ in nli_held]))
    sel_rows = [r for r in evals["synth_selection"][0] if len(ALLOWED[r[2]]) == 1]
    t_four = train.fit_temperature(logits_of(model, tok, sel_rows, "four"), torch.tensor([ALLOWED[g][0] for _, _, g in sel_rows])) if sel_rows else 1.0
    ev_rows = evals["ei_validation"][0]
    t_ev = train.fit_temperature(logits_of(model, tok, ev_rows, "evidence"), torch.tensor([y for _, _, y in ev_rows])) if ev_rows else 1.0
    torch.save(model.state_for_export(), out / "heads.pt")
    meta = {"config": cfg, "max_len": MAX_LEN, "temperature": t_nli, "four_way_temperature": t_four, "evidence_temperature": t_ev,
            "epochs": args.epochs, "lr": args.lr, "batch": args.batch, "flip_penalty": args.flip_penalty, "cases_repeat": args.cases_repeat,
            "rows": {t.name: len(t.rows) for t in tasks}, "init": args.init, "seconds": round(time.time() - t0), "curve": curve}
    (out / "heads_meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"[multitask] temperatures nli {t_nli} four {t_four} evidence {t_ev}; wrote {out / 'heads.pt'} in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
