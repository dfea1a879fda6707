// <cite-lens>: the custom element that verifies one cited answer and shows the verdict.

import { load, verify } from "./api.js";

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
