// The offscreen document: the engine (the page's worker pool and model, as packaged files) and the
// reader of cited pages. It answers the service worker only (`target: "offscreen"`).
import { load, verify } from "./citelens/citelens.js";
import { readPages } from "./reader.js";

const loading = load({ onProgress: () => {} });
loading.catch(() => {}); // reported by the verification that needs it

async function verifyAnswer(msg) {
  const started = performance.now();
  const pages = await readPages(msg.citations.map((c) => ({ url: c.url, permitted: !!msg.permitted?.[c.id] })));
  const citations = [];
  const sources = [];
  msg.citations.forEach((c, i) => {
    const p = pages[i];
    if (p.ok) {
      citations.push({ id: c.id, url: c.url, title: p.title || undefined, document: p.text });
      sources.push({ id: c.id, url: c.url, title: p.title, hint: c.hint, state: "read", kind: p.kind, cut: p.cut, chars: p.chars });
    } else {
      sources.push({ id: c.id, url: c.url, hint: c.hint, state: "unreadable", reason: p.reason, message: p.message });
    }
  });
  const read = performance.now();
  const input = { answer: msg.answer, citations };
  if (msg.question) input.question = msg.question;
  const info = await loading;
  let report;
  if (citations.length) {
    report = await verify(input, {
      onProgress: (progress) => chrome.runtime.sendMessage({ type: "progress", tabId: msg.tabId, key: msg.key, progress }).catch(() => {}),
    });
  } else {
    // No source could be read: the engine gets nothing to weigh, and the report says why per marker.
    report = await verify({ ...input, citations: [] });
  }
  // The side panel shows the answer and its sources, not the pages' full text.
  const shown = { ...input, citations: citations.map(({ document, ...rest }) => ({ ...rest, text: undefined })) };
  const done = performance.now();
  const timings = { readMs: Math.round(read - started), verifyMs: Math.round(done - read), pairs: report.pairs_scored, mode: info.mode, workers: info.workers ?? 1 };
  return { report, sources, input: shown, timings };
}

chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  if (msg?.target !== "offscreen") return false;
  if (msg.type === "ping") {
    reply({ ok: true });
    return false;
  }
  if (msg.type === "verify") {
    verifyAnswer(msg).then(reply, (e) => reply({ error: String(e.message || e) }));
    return true;
  }
  return false;
});
