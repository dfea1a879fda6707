// The offscreen document: the engine (the page's worker pool and model, as packaged files) and the
// reader of cited pages. It answers the service worker only (`target: "offscreen"`).
import { load, verify, connectWorker } from "./citelens/citelens.js";
import { readPages } from "./reader.js";

const loading = load({ onProgress: () => {} });
loading.catch(() => {}); // reported by the verification that needs it

/** Seconds before a worker that failed is tried again. */
const WORKER_RETRY_MS = 30000;
let remote = null; // {key, connecting: Promise, failedAt}

/** The configured citelens-worker (settings: workerUrl, workerToken), connected once per setting. */
function remoteFor(settings) {
  if (!settings?.workerUrl) return null;
  const key = `${settings.workerUrl}\u0000${settings.workerToken || ""}`;
  if (!remote || remote.key !== key || (remote.failedAt && Date.now() - remote.failedAt > WORKER_RETRY_MS)) {
    const entry = { key, failedAt: 0 };
    entry.connecting = connectWorker({ worker: settings.workerUrl, token: settings.workerToken }).catch((e) => {
      entry.failedAt = Date.now();
      return { error: String(e.message || e) };
    });
    remote = entry;
  }
  return remote.connecting;
}

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
  let report;
  let fallback = null;
  const worker = await remoteFor(msg.settings);
  if (worker && !worker.error && citations.length) {
    try {
      report = await worker.verify(input);
    } catch (e) {
      fallback = `the citelens worker failed (${e.message}); checked in the browser instead`;
    }
  } else if (worker?.error) {
    fallback = `${worker.error}; checked in the browser instead`;
  }
  const info = await loading;
  // In the browser when no worker computed it. With no source read, the engine gets no citation to
  // weigh and the report says so per marker.
  report ??= await verify(input, {
    onProgress: (progress) => chrome.runtime.sendMessage({ type: "progress", tabId: msg.tabId, key: msg.key, progress }).catch(() => {}),
  });
  // The side panel shows the answer and its sources, not the pages' full text.
  const shown = { ...input, citations: citations.map(({ document, ...rest }) => ({ ...rest, text: undefined })) };
  const done = performance.now();
  const timings = { readMs: Math.round(read - started), verifyMs: Math.round(done - read), pairs: report.pairs_scored, mode: info.mode, workers: info.workers ?? 1, computedOn: report.computed_on, fallback };
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
