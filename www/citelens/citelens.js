// citelens for web pages: one ES module with the JS API and the <cite-lens> custom element.
//
//   import { load, verify } from "./citelens/citelens.js";
//   const report = await verify({ answer: "Paris is in France [1].", citations: [{ id: 1, text: "..." }] });
//
// The model runs in a Web Worker (the page never freezes); where module workers are unavailable, the
// same engine runs on the page's thread. Nothing leaves the browser.

// Where the engine's files are served (worker.js, engine.js, pkg/, model/, pdfjs/): beside this
// module unless `load({ assetsUrl })` says otherwise (a bundler that moves this module but not them).
let assets = new URL(".", import.meta.url);
const defaultModelBase = () => new URL("model/", assets);

/** `assetsUrl` as a folder URL (ending in "/"), relative to the page. */
function assetsFolder(assetsUrl) {
  const url = new URL(String(assetsUrl), document.baseURI);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** A typed error: `kind` is "fetch", "hash", "load", "not_loaded", "input", "verify" or "document" (a file
 * `documentText` cannot read; `reason` says why). */
export class CitelensError extends Error {
  constructor(kind, message, reason) {
    super(message);
    this.name = "CitelensError";
    this.kind = kind;
    if (reason) this.reason = reason;
  }
}

class WorkerBackend {
  constructor() {
    this.worker = new Worker(new URL("worker.js", assets), { type: "module" });
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

class PoolBackend {
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

class PageBackend {
  async load(modelBase, onProgress) {
    const engine = await import(new URL("engine.js", assets).href);
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
class RemoteBackend {
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
async function expectedModelSha(modelBase) {
  try {
    const res = await fetch(new URL("config.json", modelBase));
    return res.ok ? (await res.json()).model_sha256 || null : null;
  } catch {
    return null;
  }
}

/**
 * Connects to a citelens-worker (`{worker: URL, token, workerSha256?, modelBase?}`): resolves to
 * `{info, verify(input, onSentence)}` once it is ready and serves the expected model; rejects with a
 * CitelensError otherwise. `load()` uses it; the extension's offscreen document too.
 */
export async function connectWorker(options) {
  const remote = new RemoteBackend(options.worker, options.token);
  const modelBase = new URL(options.modelBase || defaultModelBase(), document.baseURI);
  remote.info = await remote.load(options.workerSha256 || (await expectedModelSha(modelBase)));
  return remote;
}

let state = null; // { backend, ready: Promise<info>, mode }

/**
 * Loads the model once (later calls share it). Options: `assetsUrl` (URL of the folder that holds
 * the package's files — worker.js, engine.js, pkg/, model/, pdfjs/ — when they are not served beside
 * this module), `modelBase` (URL of the model folder; default: `model/` under the assets),
 * `worker` (false forces the single-threaded fallback), `workers` (how many Web Workers score pairs
 * in parallel; default: the number of cores, at most 4), `onProgress({stage, loaded, total, cached})`.
 * `worker` may instead be the URL of a citelens-worker (with `token`, and `workerSha256` when it serves a
 * model of your own): reports are then computed there, and the page falls back to verifying by itself
 * when the worker is unreachable, not ready or serves another model.
 * Resolves to `{model, bytes, cached, loadMs, mode}` (`mode`: "worker", "page" or "remote"; `fallback`:
 * why a configured citelens-worker is not used).
 */
export function load(options = {}) {
  if (state) return state.ready;
  if (options.assetsUrl) assets = assetsFolder(options.assetsUrl);
  const modelBase = new URL(options.modelBase || defaultModelBase(), document.baseURI);
  const onProgress = options.onProgress || (() => {});
  const start = async () => {
    let fallback = null;
    if (typeof options.worker === "string" && options.worker) {
      // A configured citelens-worker first; when it is down, not ready or serves another model, the
      // page verifies by itself and `info.fallback` says why.
      try {
        const remote = await connectWorker({ ...options, modelBase });
        state.backend = remote;
        return remote.info;
      } catch (e) {
        fallback = e.message;
      }
    }
    const local = await startLocal();
    return fallback ? { ...local, fallback } : local;
  };
  const startLocal = async () => {
    if (options.worker !== false && typeof Worker !== "undefined") {
      try {
        const size = Math.max(1, Math.min(options.workers ?? navigator.hardwareConcurrency ?? 1, 4));
        const backend = new PoolBackend(size);
        const info = await backend.load(modelBase, onProgress);
        state.backend = backend;
        return { ...info, mode: "worker", workers: size };
      } catch (e) {
        if (e.kind === "hash" || e.kind === "fetch") throw e; // the fallback would fail the same way
      }
    }
    const backend = new PageBackend();
    const info = await backend.load(modelBase, onProgress);
    state.backend = backend;
    return { ...info, mode: "page" };
  };
  state = { backend: null, ready: null };
  state.ready = start().catch((e) => {
    state = null; // a later call may try again
    throw e;
  });
  return state.ready;
}

/**
 * Verifies one input document (see schema/input.schema.json). `onSentence(partialReport, done, total)`
 * streams the report; with long documents, `onProgress({stage: "evidence", done, total})` counts the
 * candidate evidence sentences scored before the first report (in the worker pool).
 */
export async function verify(input, { onSentence, onProgress } = {}) {
  if (input == null || typeof input !== "object" || typeof input.answer !== "string") {
    throw new CitelensError("input", "verify(input) needs an object with a string `answer`");
  }
  await load();
  const report = await state.backend.verify(input, onSentence, onProgress);
  // Where it was computed: the worker's reports say "worker" themselves.
  report.computed_on ??= "browser";
  return report;
}

/**
 * A long document's text from a File or Blob (`.txt`, `.html`, `.pdf`), for a citation's `document`:
 * `{text, kind, pages?, cut}`. HTML is parsed inert (nothing in it runs); PDFs are read by pdf.js.
 * See doc-text.js for the limits and the typed errors.
 */
export async function documentText(file) {
  const { documentText: read } = await import(new URL("doc-text.js", assets).href);
  try {
    return await read(file);
  } catch (e) {
    throw new CitelensError(e.kind || "input", e.message, e.reason);
  }
}

// ---------------------------------------------------------------------------------------------
// <cite-lens>: renders the verdict of one cited answer in its shadow DOM. Input as the `input`
// property (an object) or attribute (JSON). Theming: CSS custom properties --citelens-supported,
// --citelens-missing, --citelens-contradicted, --citelens-font, and ::part(verdict | sentence |
// span | badge | citation | status | decided-by). Fires `citelens-result` (bubbles, composed) with the report.

const CATEGORY_TEXT = {
  supportive: "Supportive",
  partially_supportive: "Partially supportive",
  contradictory: "Contradictory",
  irrelevant: "Irrelevant",
};
const SPAN_TEXT = { supported: "supported", missing: "missing", contradicted: "contradicted", not_verifiable: "not verifiable" };

const STYLE = `
:host { display: block; font: 14px/1.5 var(--citelens-font, system-ui, sans-serif); color: var(--citelens-text, #1b1b1b); }
.box { border: 1px solid var(--citelens-border, #c9c9c9); border-radius: 6px; padding: 8px 10px; background: var(--citelens-background, #fff); }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; margin-right: 4px; border: 1px solid currentColor; }
.supportive { color: var(--citelens-supported, #0b6e4f); }
.partially_supportive { color: var(--citelens-missing, #8a5a00); }
.contradictory { color: var(--citelens-contradicted, #b00020); }
.irrelevant { color: var(--citelens-irrelevant, #555); }
.badge.unsure { border-style: dotted; font-style: italic; opacity: 0.85; }
.check { font-size: 12px; }
.span-supported { background: color-mix(in srgb, var(--citelens-supported, #0b6e4f) 15%, transparent); border-bottom: 2px solid var(--citelens-supported, #0b6e4f); }
.span-missing { background: color-mix(in srgb, var(--citelens-missing, #8a5a00) 15%, transparent); border-bottom: 2px dashed var(--citelens-missing, #8a5a00); }
.span-contradicted { background: color-mix(in srgb, var(--citelens-contradicted, #b00020) 15%, transparent); border-bottom: 3px double var(--citelens-contradicted, #b00020); text-decoration: line-through; text-decoration-color: var(--citelens-contradicted, #b00020); }
.span-not_verifiable { border-bottom: 2px dotted #777; }
.answer { margin: 6px 0; }
.status { font-size: 12px; color: #555; }
.error { color: var(--citelens-contradicted, #b00020); }
ul { margin: 4px 0; padding-left: 18px; }
`;

/** The answer as text nodes and highlighted spans (offsets are in Unicode code points). */
function renderAnswer(answer, spans) {
  const frag = document.createDocumentFragment();
  const chars = Array.from(answer);
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at || s.end > chars.length) continue;
    if (s.start > at) frag.append(document.createTextNode(chars.slice(at, s.start).join("")));
    const mark = document.createElement("mark");
    mark.className = `span-${s.label}`;
    mark.setAttribute("part", `span span-${s.label}`);
    mark.dataset.label = s.label;
    mark.textContent = chars.slice(s.start, s.end).join("");
    const ev = (s.evidence || [])[0];
    mark.title = `${SPAN_TEXT[s.label] || s.label}${ev ? ` — [${ev.citation}] ${ev.text}` : ""}`;
    mark.tabIndex = 0;
    frag.append(mark);
    at = s.end;
  }
  if (at < chars.length) frag.append(document.createTextNode(chars.slice(at).join("")));
  return frag;
}

const DECIDED_BY_TEXT = {
  rules: "decided by the rules (CAQA's rule over the claims)",
  four_way_head: "decided by the four-way head",
  model: "decided by the model",
  combiner: "decided by the learned combiner",
  sentences: "gathered from the sentences' verdicts",
};

function badge(category, confidence, part = "badge", uncertain = false, decidedBy = null) {
  const b = document.createElement("span");
  if (decidedBy) {
    b.dataset.decidedBy = String(decidedBy);
    b.title = (uncertain ? "unsure: the evidence does not decide this clearly; " : "") + (DECIDED_BY_TEXT[decidedBy] || String(decidedBy));
  }
  b.className = `badge ${category}${uncertain ? " unsure" : ""}`;
  b.setAttribute("part", `${part} ${category}${uncertain ? " unsure" : ""}`);
  b.dataset.uncertain = String(Boolean(uncertain));
  const name = CATEGORY_TEXT[category] || category;
  // Unsure: the category's colour, its own style, and no percentage that would read as certainty.
  b.textContent = uncertain ? `unsure: ${name}` : `${name}${confidence != null ? ` ${Math.round(confidence * 100)}%` : ""}`;
  return b;
}

function safeUrl(url) {
  try {
    const u = new URL(url, document.baseURI);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export class CiteLensElement extends HTMLElement {
  static get observedAttributes() {
    return ["input"];
  }
  constructor() {
    super();
    this.root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = STYLE;
    this.box = document.createElement("div");
    this.box.className = "box";
    this.box.setAttribute("part", "box");
    this.root.append(style, this.box);
    this._input = null;
    this._run = 0;
  }
  get input() {
    return this._input;
  }
  set input(value) {
    this._input = value;
    this.refresh();
  }
  get report() {
    return this._report || null;
  }
  attributeChangedCallback(name, _old, value) {
    if (name !== "input" || value == null) return;
    try {
      this.input = JSON.parse(value);
    } catch (e) {
      this.showStatus(`The input attribute is not JSON: ${e.message}`, true);
    }
  }
  showStatus(text, isError = false) {
    const p = document.createElement("p");
    p.className = isError ? "status error" : "status";
    p.setAttribute("part", "status");
    p.textContent = text;
    this.box.replaceChildren(p);
  }
  async refresh() {
    const run = ++this._run;
    const input = this._input;
    if (!input) return;
    this.showStatus("Loading the model…");
    try {
      await load({
        onProgress: (p) => {
          if (run === this._run && p.stage === "download" && p.total) this.showStatus(`Loading the model… ${Math.round((100 * p.loaded) / p.total)}%`);
        },
      });
      if (run !== this._run) return;
      this.showStatus("Verifying…");
      const report = await verify(input, {
        onSentence: (partial) => run === this._run && this.render(input, partial, true),
        onProgress: (p) => run === this._run && p.total && this.showStatus(`Finding the evidence in the document… ${p.done} of ${p.total} candidate sentences read`),
      });
      if (run !== this._run) return;
      this._report = report;
      this.render(input, report, false);
      this.dispatchEvent(new CustomEvent("citelens-result", { detail: report, bubbles: true, composed: true }));
    } catch (e) {
      if (run === this._run) this.showStatus(`citelens: ${e.message}`, true);
    }
  }
  /** Shows a report computed elsewhere (the extension's side panel): no model is loaded. */
  showReport(input, report) {
    this._run += 1; // a verification still running for an earlier input no longer paints
    this._input = input;
    this._report = report;
    this.render(input, report, false);
  }
  render(input, report, partial) {
    const head = document.createElement("div");
    head.append(badge(report.overall.category, report.overall.confidence, "verdict", report.overall.uncertain, report.overall.decided_by));
    head.append(document.createTextNode(` ${partial ? "checking…" : `reasoning: ${report.complexity.type}`}`));
    const answer = document.createElement("p");
    answer.className = "answer";
    answer.setAttribute("part", "answer");
    answer.append(renderAnswer(input.answer, report.spans));
    const list = document.createElement("ul");
    for (const c of report.citations) {
      const li = document.createElement("li");
      li.setAttribute("part", "citation");
      const src = (input.citations || []).find((x) => String(x.id) === c.citation);
      li.append(badge(c.category, c.confidence));
      const label = `[${c.citation}] ${src?.title || (src?.text || "").slice(0, 80)}`;
      const href = src?.url && safeUrl(src.url);
      if (href) {
        const a = document.createElement("a");
        a.href = href;
        a.rel = "noopener noreferrer";
        a.target = "_blank";
        a.textContent = label;
        li.append(a);
      } else {
        li.append(document.createTextNode(label));
      }
      list.append(li);
    }
    const notes = document.createElement("ul");
    // What the typed checks found: "the source says 21 July; the answer says 20 July".
    for (const s of report.sentences) {
      for (const c of s.claims || []) {
        for (const k of c.checks || []) {
          if (k.result !== "mismatch" && k.result !== "absent") continue;
          const li = document.createElement("li");
          li.className = "check";
          li.setAttribute("part", "check");
          li.textContent = k.message;
          notes.append(li);
        }
      }
    }
    for (const f of report.findings) {
      const li = document.createElement("li");
      li.className = "status";
      li.setAttribute("part", "finding");
      li.textContent = f.message;
      notes.append(li);
    }
    // Which model decided, and where: a worker may serve a larger model than the page's.
    const decided = document.createElement("div");
    decided.className = "status";
    decided.setAttribute("part", "decided-by");
    decided.dataset.computedOn = report.computed_on || "browser";
    decided.textContent = partial ? "" : `checked ${report.computed_on === "worker" ? "by a citelens worker" : "in this browser"} with the model ${report.model}`;
    this.box.replaceChildren(head, answer, list, notes, decided);
  }
}

if (typeof customElements !== "undefined" && !customElements.get("cite-lens")) {
  customElements.define("cite-lens", CiteLensElement);
}
