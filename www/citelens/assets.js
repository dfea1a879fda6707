// Where citelens' files are served (worker.js, engine.js, pkg/, model/, pdfjs/), and its typed error:
// what the API, the backends and the element share.

// Beside these modules unless `load({ assetsUrl })` says otherwise (a bundler that moves the modules
// but not the files).
let assets = new URL(".", import.meta.url);

/** The folder URL (ending in "/") the engine's files are served from. */
export const assetsUrl = () => assets;

/** Serves the engine's files from `assetsUrl` (relative to the page) from now on. */
export function setAssetsUrl(assetsUrl) {
  const url = new URL(String(assetsUrl), document.baseURI);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  assets = url;
}

/** The model folder when `load()` names none: `model/` under the assets. */
export const defaultModelBase = () => new URL("model/", assets);

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
