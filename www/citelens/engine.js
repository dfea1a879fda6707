// The engine where it runs (inside the worker, or on the page as the single-threaded fallback):
// fetches the model once with progress, keeps it in Cache Storage keyed by its hash, checks the
// hash, and verifies cited answers sentence by sentence.
import init, { Verifier, sha256Hex } from "./pkg/citelens_wasm.js";

const CACHE = "citelens-model-v1";

export class ModelError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind; // "fetch" | "hash" | "load"
  }
}

async function fetchWithProgress(url, onBytes) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new ModelError("fetch", `could not fetch ${url}: ${e.message}`);
  }
  if (!res.ok) throw new ModelError("fetch", `could not fetch ${url}: HTTP ${res.status}`);
  // Under Content-Encoding (a host serving the model gzipped) the length is the packed size, not the
  // bytes read here: the total is then unknown (0).
  const encoded = (res.headers.get("content-encoding") || "identity") !== "identity";
  const total = encoded ? 0 : Number(res.headers.get("content-length")) || 0;
  if (!res.body) {
    const buf = new Uint8Array(await res.arrayBuffer());
    onBytes(buf.length, total || buf.length);
    return buf;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.length;
    onBytes(got, total);
  }
  const out = new Uint8Array(got);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function openCache() {
  try {
    return typeof caches === "undefined" ? null : await caches.open(CACHE);
  } catch {
    return null; // opaque origins and some private modes have no Cache Storage: fetch every time
  }
}

/** The SHA-256 of `bytes` as hex: the browser's own (native, off the main work) where the page is a
 * secure context, else the engine's. */
async function sha256Of(bytes, runtime) {
  if (globalThis.crypto?.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  await runtime;
  return sha256Hex(bytes);
}

/** Loads the model under `modelBase` (a URL ending in "/"); `onProgress({stage, loaded, total, cached})`. */
export async function loadVerifier(modelBase, onProgress = () => {}) {
  const started = performance.now();
  onProgress({ stage: "runtime", loaded: 0, total: 0 });
  // The engine's wasm compiles while the model downloads; its error, if any, is raised where it is
  // awaited (the guard only keeps an early fetch error from leaving it unhandled).
  const runtime = init();
  runtime.catch(() => {});
  const configBytes = await fetchWithProgress(new URL("config.json", modelBase), () => {});
  let config;
  try {
    config = JSON.parse(new TextDecoder().decode(configBytes));
  } catch (e) {
    throw new ModelError("load", `config.json is not JSON: ${e.message}`);
  }
  const want = config.model_sha256;
  // The tokenizer downloads beside the model.
  const tokenizerDownload = fetchWithProgress(new URL(config.tokenizer_file || "tokenizer.json", modelBase), () => {});
  tokenizerDownload.catch(() => {});
  const modelUrl = new URL(config.model_file || "model.onnx", modelBase);
  const cacheKey = `${modelUrl.href}?sha256=${want || "none"}`;
  // Cache Storage takes http(s) URLs only; a packaged model (an extension's file) is local anyway.
  const cache = /^https?:$/.test(modelUrl.protocol) ? await openCache() : null;
  let onnx = null;
  let cached = false;
  let stored = Promise.resolve();
  if (cache && want) {
    const hit = await cache.match(cacheKey);
    if (hit) {
      const bytes = new Uint8Array(await hit.arrayBuffer());
      if ((await sha256Of(bytes, runtime)) === want) {
        onnx = bytes;
        cached = true;
        onProgress({ stage: "download", loaded: bytes.length, total: bytes.length, cached: true });
      } else {
        await cache.delete(cacheKey); // corrupted copy: fetch again
      }
    }
  }
  if (!onnx) {
    onnx = await fetchWithProgress(modelUrl, (loaded, total) => onProgress({ stage: "download", loaded, total, cached: false }));
    const got = await sha256Of(onnx, runtime);
    if (want && got !== want) {
      throw new ModelError("hash", `model.onnx has sha256 ${got}, config.json expects ${want}: refusing to load it`);
    }
    if (cache && want) {
      // Written while the model compiles; awaited before "ready", so that the pool's other workers,
      // started then, find it there and do not download it again.
      stored = cache.put(cacheKey, new Response(onnx, { headers: { "content-type": "application/octet-stream" } })).catch(() => {
        // over quota: the model still works, it is just fetched again next visit
      });
    }
  }
  const tokenizer = await tokenizerDownload;
  await runtime;
  onProgress({ stage: "compile", loaded: 0, total: 0 });
  let verifier;
  try {
    verifier = new Verifier(onnx, tokenizer, configBytes);
  } catch (e) {
    throw new ModelError("load", `the model did not load: ${e.message}`);
  } finally {
    await stored;
  }
  const info = { model: config.name, bytes: onnx.length, cached, loadMs: performance.now() - started };
  onProgress({ stage: "ready", loaded: onnx.length, total: onnx.length, cached, info });
  return { verifier, info };
}

/** Verifies one input document (object or JSON string); `onSentence(report, done, total)` streams partial reports. */
export function verifyWith(verifier, input, onSentence = () => {}) {
  const json = typeof input === "string" ? input : JSON.stringify(input);
  const out = verifier.verifyProgressive(json, (partial, done, total) => onSentence(JSON.parse(partial), done, total));
  return JSON.parse(out);
}
