// The overlay: the report painted on the page. Spans go to CSS.highlights (citelens-supported,
// -missing, -contradicted, -unverifiable); sentence and citation badges are small elements in one layer
// outside the answer, each with a closed shadow root built with createElement and textContent (nothing
// from the page or a cited page is ever parsed as HTML). Badges sit at the end of their sentence.
(() => {
  const HIGHLIGHT = { supported: "citelens-supported", missing: "citelens-missing", contradicted: "citelens-contradicted", not_verifiable: "citelens-unverifiable" };
  const CATEGORY = {
    supportive: ["✓", "supported"],
    partially_supportive: ["◐", "partly supported"],
    contradictory: ["✗", "contradicted"],
    irrelevant: ["∅", "source off-topic"],
  };
  const COLOR = { supportive: "#0b6e4f", partially_supportive: "#8a5a00", contradictory: "#b00020", irrelevant: "#555", pending: "#3457a8", unreadable: "#6b4f9e", error: "#b00020" };
  const BADGE_STYLE = `
    :host { all: initial; }
    button { font: 600 11px/16px system-ui, sans-serif; border-radius: 9px; padding: 0 6px; margin: 0 1px;
             background: #fff; cursor: pointer; border: 1px solid currentColor; white-space: nowrap; }
    button.unsure { border-style: dotted; font-style: italic; }`;

  function badgeHost(kind, label, text, color, extraClass, onClick) {
    const host = document.createElement("citelens-badge");
    host.setAttribute("data-citelens-badge", kind);
    host.setAttribute("aria-label", label);
    host.setAttribute("role", "note");
    host.style.cssText = "all: initial; display: inline-block; pointer-events: auto;";
    const root = host.attachShadow({ mode: "closed" });
    const style = document.createElement("style");
    style.textContent = BADGE_STYLE;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.title = label;
    b.style.color = color;
    if (extraClass) b.className = extraClass;
    b.addEventListener("click", (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      onClick();
    });
    root.append(style, b);
    return host;
  }

  /** What one sentence's badge says: its verdict, or why there is none. */
  function sentenceBadge(sentence, sources, settings) {
    const cited = sentence.citations || [];
    const unread = cited.length === 0 && (sentence.marked || []).length > 0 && (sentence.marked || []).every((id) => sources[id] && sources[id].state !== "read");
    if (unread) return { kind: "unreadable", text: "? source unreadable", label: "citelens: not checked, its source could not be read" };
    const v = sentence.verdict || {};
    const [icon, words] = CATEGORY[v.category] || ["?", v.category || "no verdict"];
    // The user's bar (settings, 0-1): a verdict less sure than it is shown as unsure, never as certain.
    const belowBar = v.confidence != null && v.confidence < (Number(settings.unsureBelow) || 0);
    if (v.uncertain || belowBar) return { kind: v.category, text: `? unsure: ${words}`, label: `citelens: unsure, leaning ${words}`, unsure: true };
    const pct = v.confidence != null ? ` ${Math.round(v.confidence * 100)}%` : "";
    return { kind: v.category, text: `${icon} ${words}`, label: `citelens: ${words}${pct}` };
  }

  class Overlay {
    constructor(onOpen) {
      this.onOpen = onOpen;
      this.layer = null;
    }
    /** The layer that holds the badges, re-attached if the page removed it. */
    ensureLayer() {
      if (!this.layer) {
        this.layer = document.createElement("citelens-overlay");
        this.layer.style.cssText = "all: initial; position: absolute; top: 0; left: 0; width: 0; height: 0; z-index: 2147483646;";
      }
      if (!this.layer.isConnected) document.documentElement.append(this.layer);
      return this.layer;
    }
    owns(node) {
      return !!this.layer && (node === this.layer || this.layer.contains(node));
    }
    clear() {
      for (const name of Object.values(HIGHLIGHT)) CSS.highlights.delete(name);
      this.layer?.replaceChildren();
    }
    /** Paints every answer (`answers`: [{key, map, report, sources, status, message}]). */
    paint(answers, settings) {
      const ranges = Object.fromEntries(Object.keys(HIGHLIGHT).map((k) => [k, []]));
      const badges = [];
      const { rangeOf } = globalThis.citelensExtract;
      for (const a of answers) {
        if (a.status !== "done") {
          const r = rangeOf(a.map, 0, a.map.length);
          if (r) badges.push({ range: r, node: this.statusBadge(a) });
          continue;
        }
        for (const s of a.report.spans || []) {
          if (!HIGHLIGHT[s.label] || (s.label === "supported" && settings.paintSupported === false)) continue;
          const r = rangeOf(a.map, s.start, s.end);
          if (r) ranges[s.label].push(r);
        }
        a.report.sentences.forEach((s, i) => {
          const r = rangeOf(a.map, s.start, s.end);
          if (!r) return;
          const info = sentenceBadge(s, a.sources, settings);
          const group = document.createElement("citelens-badges");
          group.style.cssText = "all: initial; position: absolute; white-space: nowrap;";
          group.append(badgeHost("sentence", info.label, info.text, COLOR[info.kind] || "#555", info.unsure ? "unsure" : "", () => this.onOpen(a.key, i)));
          for (const id of s.marked || []) {
            const src = a.sources[id];
            const pc = (s.per_citation || []).find((p) => p.citation === id);
            let text;
            let label;
            let color;
            if (!src || src.state !== "read") {
              text = `[${id}] unreadable`;
              label = `citelens: source ${id} could not be read${src?.message ? `: ${src.message}` : ""}`;
              color = COLOR.unreadable;
            } else if (pc) {
              const [icon, words] = CATEGORY[pc.category] || ["?", pc.category];
              text = `[${id}] ${icon}`;
              label = `citelens: source ${id} — ${words}`;
              color = COLOR[pc.category] || "#555";
            } else continue;
            group.append(badgeHost("citation", label, text, color, "", () => this.onOpen(a.key, i)));
          }
          badges.push({ range: r, node: group });
        });
      }
      for (const [label, list] of Object.entries(ranges)) {
        if (list.length) CSS.highlights.set(HIGHLIGHT[label], new Highlight(...list));
        else CSS.highlights.delete(HIGHLIGHT[label]);
      }
      const layer = this.ensureLayer();
      layer.replaceChildren();
      for (const { range, node } of badges) {
        const rects = range.getClientRects();
        const last = rects[rects.length - 1] || range.getBoundingClientRect();
        node.style.left = `${Math.round(last.right + window.scrollX + 2)}px`;
        node.style.top = `${Math.round(last.top + window.scrollY - 1)}px`;
        layer.append(node);
      }
    }
    statusBadge(a) {
      const words = { reading: "citelens: reading the cited pages…", checking: "citelens: checking…", error: `citelens: ${a.message || "failed"}` }[a.status] || "citelens";
      const host = badgeHost("status", words, a.status === "error" ? "! citelens" : "… citelens", a.status === "error" ? COLOR.error : COLOR.pending, "", () => this.onOpen(a.key, -1));
      const wrap = document.createElement("citelens-badges");
      wrap.style.cssText = "all: initial; position: absolute;";
      wrap.append(host);
      return wrap;
    }
  }

  globalThis.citelensOverlay = { Overlay, HIGHLIGHT };
})();
