// citelens' JS API: load the model once, verify a cited answer, read a long document's text, or
// connect to a citelens-worker. The backends that compute reports are in backends.js.

import { assetsUrl, setAssetsUrl, defaultModelBase, CitelensError } from "./assets.js";
import { PoolBackend, PageBackend, RemoteBackend, expectedModelSha } from "./backends.js";

export { CitelensError };

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
  if (options.assetsUrl) setAssetsUrl(options.assetsUrl);
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
  const { documentText: read } = await import(new URL("doc-text.js", assetsUrl()).href);
  try {
    return await read(file);
  } catch (e) {
    throw new CitelensError(e.kind || "input", e.message, e.reason);
  }
}
