// The answer as text, with citation markers, and a map from the text back to the page's DOM.
//
// The engine reads "The tower is in Paris.[1] It opened in 1889.[2]" and reports spans as code-point
// offsets into that text; `map[i]` says which text node and UTF-16 offset code point i came from (null
// for what we wrote: markers, paragraph breaks), so a span becomes a DOM Range to highlight.
(() => {
  /** Only web addresses are fetched or linked: `javascript:`, `data:` and the rest are refused. */
  function webUrl(raw, base) {
    try {
      const u = new URL(raw, base);
      return u.protocol === "http:" || u.protocol === "https:" ? u : null;
    } catch {
      return null;
    }
  }

  /** Bing's `u=a1<base64url>` parameter. */
  function decodeBingU(u) {
    if (!u || !u.startsWith("a1")) return null;
    try {
      const b64 = u.slice(2).replace(/-/g, "+").replace(/_/g, "/");
      return atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    } catch {
      return null;
    }
  }

  /**
   * The cited page's URL from a link as the engine wrote it: redirect wrappers unwrapped (Google's
   * /url?q=, Bing's /ck/a?u=a1…, any `url=`/`u=` on a redirect path), tracking parameters the engine
   * added dropped, and a `#:~:text=` fragment kept apart as a hint. `{url, hint}` or null when it is not
   * a web address.
   */
  function unwrapCitation(raw, base) {
    let u = webUrl(raw, base);
    for (let depth = 0; u && depth < 3; depth++) {
      const host = u.hostname.replace(/^www\./, "");
      let inner = null;
      if (/^google\.[a-z.]+$/.test(host) && u.pathname === "/url") inner = u.searchParams.get("q") || u.searchParams.get("url");
      else if (host === "bing.com" && u.pathname.startsWith("/ck/")) inner = decodeBingU(u.searchParams.get("u"));
      else if (/\/(redirect|out|link|r)\/?$/.test(u.pathname)) inner = u.searchParams.get("url") || u.searchParams.get("u");
      if (!inner) break;
      u = webUrl(inner);
    }
    if (!u) return null;
    for (const k of [...u.searchParams.keys()]) if (k === "utm_source" && /chatgpt|perplexity|openai/.test(u.searchParams.get(k))) u.searchParams.delete(k);
    let hint = null;
    const at = u.hash.indexOf(":~:");
    if (at >= 0) {
      const directive = u.hash.slice(at + 3);
      const m = /(?:^|&)text=([^&]*)/.exec(directive);
      if (m) {
        // textStart[,textEnd] with optional prefix- / -suffix: the quoted words are start..end.
        const parts = m[1].split(",").map((p) => {
          try {
            return decodeURIComponent(p);
          } catch {
            return p;
          }
        });
        const words = parts.filter((p, i) => !(i === 0 && p.endsWith("-") && parts.length > 1) && !(i === parts.length - 1 && p.startsWith("-") && parts.length > 1));
        hint = words.join(" … ").slice(0, 500);
      }
      u.hash = u.hash.slice(0, at).replace(/^#$/, "");
    }
    return { url: u.href, hint };
  }

  const SKIP_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "svg", "BUTTON", "TEXTAREA", "INPUT", "SELECT", "IFRAME", "IMG", "CITELENS-OVERLAY"]);
  const BLOCK_TAGS = new Set(["P", "DIV", "LI", "UL", "OL", "H1", "H2", "H3", "H4", "H5", "H6", "BR", "TR", "TABLE", "SECTION", "ARTICLE", "BLOCKQUOTE", "PRE", "DD", "DT", "HR"]);
  /** An answer longer than this is cut (and says so): a search answer is a few hundred words. */
  const MAX_ANSWER_CHARS = 20000;
  /** Sources per answer at most; markers past it are left out (and the report says so). */
  const MAX_SOURCES = 12;

  /**
   * Reads an answer: `root` is its container; `range` (optional) limits it to a selection. `isMarker(el)`
   * says whether an element is a citation marker and `sourceOf(el)` gives its link. Links that are not
   * markers: with `linksAreSources` (selection mode) each becomes a source, marked after its text.
   * Returns {text, map, citations: [{id, url, hint}], refused: [{label, reason}], cut}.
   */
  function extractAnswer(root, { isMarker = () => false, sourceOf = () => null, skip = [], range = null, linksAreSources = false, base = location.href } = {}) {
    let text = "";
    const map = [];
    const ids = new Map();
    const citations = [];
    const refused = [];
    let cut = false;
    const full = () => map.length >= MAX_ANSWER_CHARS;
    const pushSynthetic = (s) => {
      for (const ch of s) {
        text += ch;
        map.push(null);
      }
    };
    const lastIsSpace = () => text.length === 0 || /\s$/.test(text);
    /** A marker follows its text directly: "Paris.[1]", not "Paris. [1]". */
    const dropTrailingSpace = () => {
      if (text.endsWith(" ")) {
        text = text.slice(0, -1);
        map.pop();
      }
    };
    const breakLine = () => {
      if (text.length && !text.endsWith("\n")) {
        dropTrailingSpace();
        pushSynthetic("\n");
      }
    };
    const pushText = (node, from, to) => {
      const s = node.nodeValue;
      let i = from;
      while (i < to) {
        if (full()) {
          cut = true;
          return;
        }
        const cp = s.codePointAt(i);
        const ch = String.fromCodePoint(cp);
        const width = ch.length;
        if (/\s/.test(ch)) {
          if (!lastIsSpace()) {
            text += " ";
            map.push([node, i]);
          }
        } else {
          text += ch;
          map.push([node, i]);
        }
        i += width;
      }
    };
    const marker = (raw, label) => {
      const got = raw ? unwrapCitation(raw, base) : null;
      if (!got) {
        refused.push({ label: (label || "").trim().slice(0, 80), reason: raw ? "not a web address" : "no link" });
        return;
      }
      let id = ids.get(got.url);
      if (!id) {
        if (ids.size >= MAX_SOURCES) {
          refused.push({ label: got.url.slice(0, 200), reason: `more than ${MAX_SOURCES} sources` });
          return;
        }
        id = String(ids.size + 1);
        ids.set(got.url, id);
        citations.push({ id, url: got.url, hint: got.hint });
      } else if (got.hint && !citations[Number(id) - 1].hint) citations[Number(id) - 1].hint = got.hint;
      if (!text.endsWith(`[${id}]`)) pushSynthetic(`[${id}]`);
    };
    const inRange = (node) => !range || range.intersectsNode(node);
    const walk = (node) => {
      for (let n = node.firstChild; n && !full(); n = n.nextSibling) {
        if (!inRange(n)) continue;
        if (n.nodeType === Node.TEXT_NODE) {
          let from = 0;
          let to = n.nodeValue.length;
          if (range && n === range.startContainer) from = range.startOffset;
          if (range && n === range.endContainer) to = range.endOffset;
          pushText(n, from, to);
        } else if (n.nodeType === Node.ELEMENT_NODE) {
          if (isMarker(n)) {
            dropTrailingSpace();
            marker(sourceOf(n), n.textContent);
            continue;
          }
          if (SKIP_TAGS.has(n.tagName) || n.hidden || n.getAttribute("aria-hidden") === "true") continue;
          if (skip.some((sel) => n.matches(sel))) continue;
          const block = BLOCK_TAGS.has(n.tagName);
          if (block) breakLine();
          if (linksAreSources && n.tagName === "A" && n.hasAttribute("href")) {
            const label = (n.textContent || "").trim();
            if (/^\[?\d{1,3}\]?$/.test(label)) {
              dropTrailingSpace();
              marker(n.getAttribute("href"), label); // a numbered marker: its number is not answer text
              continue;
            }
            walk(n);
            marker(n.getAttribute("href"), label); // an inline link: the text stays, its source follows
            continue;
          }
          walk(n);
          if (block) breakLine();
        }
      }
    };
    walk(root);
    // Trim the ends (their map entries with them).
    while (text.length && /\s$/.test(text)) {
      text = text.slice(0, -1);
      map.pop();
    }
    let lead = 0;
    while (lead < text.length && /\s/.test(text[lead])) lead++;
    if (lead) {
      text = text.slice(lead);
      map.splice(0, lead);
    }
    return { text, map, citations, refused, cut };
  }

  /**
   * The DOM Range of code points [start, end) of an extracted answer, shrunk to text from the page (a
   * span may begin or end on a marker); null when the page's nodes are gone or none is left.
   */
  function rangeOf(map, start, end) {
    let a = start;
    let b = end - 1;
    while (a <= b && !map[a]) a++;
    while (b >= a && !map[b]) b--;
    if (a > b || !map[a] || !map[b]) return null;
    const [sn, so] = map[a];
    const [en, eo] = map[b];
    if (!sn.isConnected || !en.isConnected) return null;
    const endWidth = String.fromCodePoint(en.nodeValue.codePointAt(eo) ?? 32).length;
    try {
      const r = new Range();
      r.setStart(sn, Math.min(so, sn.nodeValue.length));
      r.setEnd(en, Math.min(eo + endWidth, en.nodeValue.length));
      return r;
    } catch {
      return null;
    }
  }

  globalThis.citelensExtract = { unwrapCitation, extractAnswer, rangeOf, webUrl, MAX_ANSWER_CHARS, MAX_SOURCES };
})();
