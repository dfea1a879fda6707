// citelens on an answer engine's page: finds finished answers (the site's adapter), sends each to the
// extension for verification (the cited pages are fetched and read in the offscreen document, never
// here), and paints the report. Also the generic mode: "Verify with citelens" on a selection.
(() => {
  if (globalThis.citelensContent) return; // injected again by selection mode
  const { adaptersFor } = globalThis.citelensAdapters;
  const { extractAnswer } = globalThis.citelensExtract;
  /** Mutations are gathered this long before the page is scanned again (a streaming answer mutates
   * hundreds of times a second). */
  const SCAN_DELAY_MS = 120;
  const MAX_QUESTION_CHARS = 500;

  let settings = { paintSupported: true };
  const answers = new Map(); // key -> {key, container, adapter, text, map, status, report, sources, ...}
  let nextKey = 1;
  let lastUrl = location.href;

  const send = (msg) =>
    chrome.runtime.sendMessage(msg).catch((e) => ({ error: `the extension did not answer (${e.message}); reload the page` }));
  const overlay = new globalThis.citelensOverlay.Overlay((key, sentence) => send({ type: "open-panel", key, sentence }));

  function repaint() {
    overlay.paint([...answers.values()], settings);
  }

  /** Marker ids written in each sentence's stretch of the answer (up to the next sentence), including
   * those the engine never saw because their page could not be read. */
  function markedIds(text, sentences) {
    const chars = Array.from(text);
    return sentences.map((s, i) => {
      const stretch = chars.slice(s.start, i + 1 < sentences.length ? sentences[i + 1].start : chars.length).join("");
      return [...new Set([...stretch.matchAll(/\[(\d{1,3})\]/g)].map((m) => m[1]))];
    });
  }

  async function verify(state, question) {
    state.status = "reading";
    repaint();
    const res = await send({
      type: "verify",
      key: state.key,
      adapter: state.adapter,
      question,
      answer: state.text,
      citations: state.citations,
      refused: state.refused,
      cut: state.cut,
      pageUrl: location.href,
    });
    if (answers.get(state.key) !== state) return; // superseded meanwhile
    if (!res || res.error) {
      state.status = "error";
      state.message = res?.error || "no answer from the extension";
    } else {
      state.status = "done";
      state.report = res.report;
      state.sources = Object.fromEntries(res.sources.map((s) => [s.id, s]));
      markedIds(state.text, state.report.sentences).forEach((ids, i) => (state.report.sentences[i].marked = ids));
    }
    repaint();
  }

  function questionText(adapter) {
    if (!adapter.question) return null;
    const el = document.querySelector(adapter.question);
    const q = (el && ("value" in el && el.value ? el.value : el.textContent)) || "";
    return q.trim().slice(0, MAX_QUESTION_CHARS) || null;
  }

  function isFinished(adapter, container) {
    const { selector, scope } = adapter.finished;
    if (scope === "document") return !!document.querySelector(selector);
    const turn = (adapter.turn && container.closest(adapter.turn)) || container.parentElement || container;
    return turn.matches(selector) || !!turn.querySelector(selector);
  }

  /** Answers the page shows, each read once it has finished; re-anchors answers the page re-rendered. */
  function scan() {
    if (location.href !== lastUrl) {
      // In-page navigation: a new question, a new answer.
      lastUrl = location.href;
      answers.clear();
      overlay.clear();
      send({ type: "navigated", url: location.href }); // before any new answer's "verify": messages keep their order
    }
    for (const adapter of adaptersFor(location)) {
      const selector = adapter.answer.find((s) => document.querySelector(s));
      if (!selector) continue;
      for (const container of document.querySelectorAll(selector)) {
        if (!isFinished(adapter, container)) continue;
        const ex = extractAnswer(container, {
          isMarker: (el) => el.matches(adapter.citation),
          sourceOf: adapter.source || ((el) => (el.matches("a[href]") ? el : el.querySelector("a[href]"))?.getAttribute("href") || null),
          skip: adapter.skip || [],
        });
        if (!ex.text) continue;
        const known = [...answers.values()].find((s) => s.container === container || (s.text === ex.text && !s.container.isConnected));
        if (known && known.text === ex.text) {
          known.container = container; // the page re-rendered it: same words, new nodes
          known.map = ex.map;
          continue;
        }
        if (known) answers.delete(known.key); // the answer changed (regenerated): check it again
        if (!ex.citations.length) continue; // nothing cited, nothing to check against
        const state = { key: nextKey++, container, adapter: { id: adapter.id, name: adapter.name }, ...ex, status: "reading" };
        answers.set(state.key, state);
        verify(state, questionText(adapter));
      }
    }
    repaint();
  }

  let timer = null;
  const schedule = () => {
    if (timer == null) timer = setTimeout(() => ((timer = null), scan()), SCAN_DELAY_MS);
  };
  new MutationObserver((records) => {
    if (records.every((r) => overlay.owns(r.target))) return; // our own badges
    schedule();
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-aio-state", "data-stream-state", "data-aimode-complete", "hidden"] });
  window.addEventListener("resize", schedule);
  window.addEventListener("popstate", schedule);
  globalThis.navigation?.addEventListener?.("navigatesuccess", schedule);

  /** Generic mode: the selected text is the answer, the links inside it are its sources. */
  function verifySelection() {
    const sel = getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return { error: "select an answer, with its source links, first" };
    const range = sel.getRangeAt(0).cloneRange();
    const root = range.commonAncestorContainer.nodeType === Node.ELEMENT_NODE ? range.commonAncestorContainer : range.commonAncestorContainer.parentElement;
    const ex = extractAnswer(root, { range, linksAreSources: true });
    if (!ex.text) return { error: "the selection has no text" };
    if (!ex.citations.length) return { error: "the selection has no links to sources in it" };
    for (const [k, s] of answers) if (s.adapter.id === "selection") answers.delete(k);
    const state = { key: nextKey++, container: root, adapter: { id: "selection", name: "Selection" }, ...ex, status: "reading" };
    answers.set(state.key, state);
    verify(state, null);
    return { ok: true, key: state.key, sources: ex.citations.length };
  }

  chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
    if (msg?.target !== "content") return false;
    if (msg.type === "verify-selection") reply(verifySelection());
    else if (msg.type === "ping") reply({ ok: true });
    return false;
  });
  chrome.storage.local.get("settings").then(({ settings: s }) => {
    settings = { ...settings, ...(s || {}) };
    repaint();
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && changes.settings) {
      settings = { ...settings, ...(changes.settings.newValue || {}) };
      repaint();
    }
  });

  globalThis.citelensContent = { scan };
  scan();
})();
