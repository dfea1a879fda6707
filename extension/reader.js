// Reading a cited page in the offscreen document: fetched with caps (bytes, time, several at once),
// its main text taken by Readability (HTML, parsed inert by DOMParser: nothing in it runs or loads) or
// pdf.js (PDF, eval off), cut at the engine's document cap, and kept per URL while the browser runs.
import { htmlToText, pdfToText, bounded } from "./citelens/doc-text.js";

/** Bytes read of one page at most; the rest is not downloaded. */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
/** A page that has not arrived by then is reported unreadable. */
export const FETCH_TIMEOUT_MS = 15000;
/** Pages fetched at once. */
export const FETCH_CONCURRENCY = 4;
/** Pages remembered (their text), least recently used dropped first. */
export const CACHE_PAGES = 64;

/** A page that could not be read: `reason` is "no_permission", "network", "http", "timeout",
 * "unsupported", "no_text" or "not_web". */
export class PageError extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

const cache = new Map(); // url -> Promise<{title, text, kind, cut, bytes}>

async function readBody(res) {
  const reader = res.body.getReader();
  const chunks = [];
  let got = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = MAX_PAGE_BYTES - got;
    if (value.length >= room) {
      chunks.push(value.subarray(0, room));
      got += room;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    got += value.length;
  }
  const out = new Uint8Array(got);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { bytes: out, truncated };
}

/** The main text of an HTML page: Readability's article when it finds one, else every paragraph. */
function htmlMainText(html, url) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const base = doc.createElement("base");
  base.href = url;
  doc.head?.prepend(base);
  let article = null;
  try {
    article = new globalThis.Readability(doc, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  if (article?.content) {
    const text = htmlToText(article.content);
    if (/[\p{L}\p{N}]/u.test(text)) return { title: (article.title || "").trim(), text };
  }
  return { title: doc.title.trim(), text: htmlToText(html) };
}

async function fetchPage(url, permitted) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new PageError("not_web", "not a web address");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new PageError("not_web", "not a web address");
  let res;
  try {
    res = await fetch(u.href, { credentials: "omit", redirect: "follow", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (e) {
    if (e.name === "TimeoutError" || e.name === "AbortError") throw new PageError("timeout", `no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
    throw permitted
      ? new PageError("network", `could not be fetched (${e.message})`)
      : new PageError("no_permission", `${u.host} does not let other sites read it; allow citelens to read cited pages in its settings`);
  }
  if (!res.ok) throw new PageError("http", `the site answered HTTP ${res.status}`);
  const type = (res.headers.get("content-type") || "").split(";")[0].trim().toLowerCase();
  const { bytes, truncated } = await readBody(res);
  let title = "";
  let text;
  let kind;
  if (type === "application/pdf" || (/\.pdf$/i.test(u.pathname) && (type === "" || type === "application/octet-stream"))) {
    kind = "pdf";
    try {
      text = (await pdfToText(bytes)).text;
    } catch (e) {
      throw new PageError("unsupported", e.message);
    }
    if (!/[\p{L}\p{N}]/u.test(text)) throw new PageError("no_text", "the PDF has no text layer (a scan?)");
  } else if (type === "text/html" || type === "application/xhtml+xml" || type === "") {
    kind = "html";
    ({ title, text } = htmlMainText(new TextDecoder().decode(bytes), res.url || u.href));
  } else if (type.startsWith("text/")) {
    kind = "text";
    text = new TextDecoder().decode(bytes);
  } else {
    throw new PageError("unsupported", `a ${type} file, which citelens cannot read`);
  }
  if (!/[\p{L}\p{N}]/u.test(text)) throw new PageError("no_text", "the page has no text");
  const b = bounded(text);
  return { title: title.slice(0, 300), text: b.text, kind, cut: b.cut || truncated, chars: b.chars };
}

/** The page's text, from the cache when it was read before (failures are not cached). */
export function readPage(url, permitted) {
  const hit = cache.get(url);
  if (hit) {
    cache.delete(url);
    cache.set(url, hit);
    return hit;
  }
  const p = fetchPage(url, permitted);
  cache.set(url, p);
  p.catch(() => cache.delete(url));
  while (cache.size > CACHE_PAGES) cache.delete(cache.keys().next().value);
  return p;
}

/** Reads several pages, at most FETCH_CONCURRENCY at a time; settles every one. */
export async function readPages(items) {
  const out = new Array(items.length);
  let next = 0;
  const work = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { ok: true, ...(await readPage(items[i].url, items[i].permitted)) };
      } catch (e) {
        out[i] = { ok: false, reason: e.reason || "network", message: String(e.message || e) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, items.length) }, work));
  return out;
}
