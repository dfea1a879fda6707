// The backends that compute a report: a pool of Web Workers (each with the model), the page's own
// thread (where module workers are unavailable), and a citelens-worker server.

import { assetsUrl, CitelensError } from "./assets.js";

export class WorkerBackend {
  constructor() {
    this.worker = new Worker(new URL("worker.js", assetsUrl()), { type: "module" });
    this.pending = new Map();
    this.next = 1;
    this.worker.onmessage = (ev) => {
      const msg = ev.data;
      const job = this.pending.get(msg.id);
      if (!job) return;
      if (msg.type === "progress") job.onProgress?.(msg.progress);
      else {
        this.pending.delete(msg.id);
        if (msg.type === "error") job.reject(new CitelensError(msg.kind, msg.message));
        else job.resolve(msg);
      }
    };
    // A worker that cannot start (no module workers, blocked script) fails every job.
    this.worker.onerror = (ev) => {
      ev.preventDefault?.();
      for (const job of this.pending.values()) job.reject(new CitelensError("load", `worker failed: ${ev.message || "script error"}`));
      this.pending.clear();
      this.broken = true;
    };
  }
  call(msg, hooks = {}) {
    if (this.broken) return Promise.reject(new CitelensError("load", "worker failed"));
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject, ...hooks });
      this.worker.postMessage({ id, ...msg });
    });
  }
  async load(modelBase, onProgress) {
    return (await this.call({ type: "load", modelBase: String(modelBase) }, { onProgress })).info;
  }
}

/**
 * Several workers, each with its own copy of the model, so a verification uses every core: the first
 * worker plans (which pairs to score) and assembles the report; all of them score pairs.
 */
/** Pairs a worker takes at a time: one, so the workers finish together (a message costs well under
 * a millisecond; a pair, tens of milliseconds). */
const PULL_PAIRS = 1;
/** The score table's key for a (premise, hypothesis) pair. */
const pairKey = (p, h) => `${p}\u0000${h}`;
/** `[premise, hypothesis]` pairs longest first: the last pairs the workers take are short, so they
 * finish together. */
const longestFirst = (pairs) => pairs.slice().sort((a, b) => b[0].length + b[1].length - a[0].length - a[1].length);

export class PoolBackend {
  constructor(size) {
    this.size = size;
    this.workers = [new WorkerBackend()];
    this.ready = [];
  }
  async load(modelBase, onProgress) {
    const info = await this.workers[0].load(modelBase, onProgress);
    this.ready.push(this.workers[0]);
    // The rest start once the first has the model in Cache Storage, so it is downloaded once.
    for (let i = 1; i < this.size; i++) {
      const w = new WorkerBackend();
      this.workers.push(w);
      w.load(modelBase, () => {}).then(() => this.ready.push(w), () => {});
    }
    return info;
  }
  async run(worker, msg) {
    return (await worker.call(msg)).out;
  }
  /** The workers with the model, the lead first. */
  readyWorkers() {
    const lead = this.workers[0];
    return this.ready.includes(lead) ? [lead, ...this.ready.filter((w) => w !== lead)] : this.ready.slice();
  }
  /**
   * Round one with long documents: every claim's candidate evidence pairs, scored by all the workers
   * (the document is indexed in the lead, which is quick; scoring the candidates is what takes time).
   * Resolves to the score rows for "prepare", or undefined when no citation is a document.
   */
  async roundOne(input, onProgress) {
    const { pairs } = JSON.parse(await this.run(this.workers[0], { type: "candidates", input }));
    if (!pairs.length) return undefined;
    // One pair per message, longest first.
    const order = longestFirst(pairs);
    const rows = [];
    let next = 0;
    let done = 0;
    onProgress?.({ stage: "evidence", done, total: pairs.length });
    const work = async (worker) => {
      while (next < order.length) {
        const pair = order[next++];
        const [probs] = JSON.parse(await this.run(worker, { type: "score", pairs: JSON.stringify([pair]) }));
        if (probs) rows.push([pair[0], pair[1], probs]); // a pair the model refused counts as neutral, and is a finding
        onProgress?.({ stage: "evidence", done: ++done, total: pairs.length });
      }
    };
    await Promise.all(this.readyWorkers().map(work));
    return JSON.stringify(rows);
  }
  async verify(input, onSentence, onProgress) {
    const lead = this.workers[0];
    const json = JSON.stringify(input);
    const roundOne = await this.roundOne(json, onProgress);
    // One plan per request: the lead worker plans and keeps the plan. Every pair is scored once, in
    // the order of the steps (sentences) that first need it, by whichever worker is free: workers
    // pull a few pairs at a time, so no worker waits at a step's end for a slower one. The lead
    // reports each step as soon as its pairs are in, between its own scoring.
    const { input: fitted, notes, steps } = JSON.parse(await this.run(lead, { type: "prepare", input: json, roundOne }));
    const doc = JSON.stringify(fitted);
    const queue = [];
    const left = steps.map(() => 0);
    const queued = new Set();
    steps.forEach((step, k) => {
      // Longest first within a step.
      for (const [p, h] of longestFirst(step.pairs)) {
        const key = pairKey(p, h);
        if (queued.has(key)) continue;
        queued.add(key);
        queue.push({ p, h, key, step: k });
        left[k] += 1;
      }
    });
    const table = new Map();
    let next = 0;
    let reported = -1;
    let report = null;
    // The last step whose pairs, and every earlier step's, are scored.
    const ready = () => {
      let k = reported;
      while (k + 1 < steps.length && left[k + 1] === 0) k += 1;
      return k;
    };
    const assemble = async (k) => {
      reported = k;
      const scores = [...table.entries()].map(([key, probs]) => [...key.split("\u0000"), probs]);
      report = JSON.parse(await this.run(lead, { type: "assemble", input: doc, scores: JSON.stringify(scores), upto: steps[k].sentences }));
      report.findings.push(...notes);
      onSentence?.(report, k + 1, steps.length);
    };
    const work = async (worker, isLead) => {
      for (;;) {
        if (isLead && ready() > reported) {
          await assemble(ready());
          continue;
        }
        if (next >= queue.length) return;
        const part = queue.slice(next, next + PULL_PAIRS);
        next += part.length;
        const probs = JSON.parse(await this.run(worker, { type: "score", pairs: JSON.stringify(part.map((x) => [x.p, x.h])) }));
        part.forEach((x, j) => {
          if (probs[j]) table.set(x.key, probs[j]);
          left[x.step] -= 1;
        });
      }
    };
    await Promise.all(this.readyWorkers().map((w) => work(w, w === lead)));
    // Steps the other workers finished after the lead ran out of pairs (or a plan with no pairs).
    if (steps.length && ready() > reported) await assemble(ready());
    return report;
  }
}

export class PageBackend {
  async load(modelBase, onProgress) {
    const engine = await import(new URL("engine.js", assetsUrl()).href);
    this.engine = engine;
    try {
      this.loaded = await engine.loadVerifier(String(modelBase), onProgress);
    } catch (e) {
      throw new CitelensError(e.kind || "load", e.message);
    }
    return this.loaded.info;
  }
  async verify(input, onSentence, _onProgress) {
    // On the page's thread the engine runs round one and round two in one call: no progress between.
    if (!this.loaded) throw new CitelensError("not_loaded", "the model is not loaded");
    try {
      return this.engine.verifyWith(this.loaded.verifier, input, onSentence);
    } catch (e) {
      throw new CitelensError("verify", e.message);
    }
  }
}

/**
 * A citelens-worker (issue 15) as the backend: reports are computed there. Accepted only when it is
 * ready and serves the expected model (its `/v1/info` sha256 equals `sha256`: by default the model this
 * page would load itself), so a verdict never silently comes from another model.
 */
export class RemoteBackend {
  constructor(url, token) {
    this.url = String(url).replace(/\/+$/, "");
    this.token = token || "";
  }
  async call(path, init = {}) {
    let res;
    try {
      res = await fetch(`${this.url}${path}`, { ...init, headers: { ...(init.headers || {}), ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) } });
    } catch (e) {
      throw new CitelensError("fetch", `the citelens worker at ${this.url} cannot be reached: ${e.message}`);
    }
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try {
        message = (await res.json()).error?.message || message;
      } catch {}
      throw new CitelensError(res.status === 413 ? "input" : "verify", `the citelens worker answered: ${message}`);
    }
    return res;
  }
  async load(sha256) {
    await this.call("/health/ready");
    const info = await (await this.call("/v1/info")).json();
    if (sha256 && info.sha256 !== sha256) {
      throw new CitelensError("hash", `the citelens worker serves model ${info.model} (sha256 ${String(info.sha256).slice(0, 12)}…), not the expected ${sha256.slice(0, 12)}…`);
    }
    return { model: info.model, bytes: 0, cached: false, loadMs: 0, mode: "remote", backend: info.backend, workerUrl: this.url };
  }
  async verify(input, onSentence) {
    const res = await this.call("/v1/verify", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
    const report = await res.json();
    onSentence?.(report, report.sentences.length, report.sentences.length);
    return report;
  }
}

/** The sha256 the model folder's config.json names (what a worker must serve to be used). */
export async function expectedModelSha(modelBase) {
  try {
    const res = await fetch(new URL("config.json", modelBase));
    return res.ok ? (await res.json()).model_sha256 || null : null;
  } catch {
    return null;
  }
}
