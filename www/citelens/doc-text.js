// A long document's text from a file the user gives (issue 13): plain text as it is, HTML parsed inert
// by the browser's DOMParser (nothing in it runs or loads) and turned into paragraphs, PDF read by
// pdf.js (pdfjs-dist, staged beside this file by scripts/stage-engine.sh) with eval off.
//
// Everything is bounded: the file's bytes, the PDF's pages, and the text (cut at the engine's cap,
// and `cut: true` says so).

/** Files over this many bytes are refused before reading: a web page or a paper is far smaller. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** The engine's cap on a document (`Caps::max_document_chars`): text past it is cut here, visibly. */
export const MAX_DOCUMENT_CHARS = 1_048_576;
/** PDF pages read at most (a 1,000-page report already exceeds the text cap). */
export const MAX_PDF_PAGES = 2000;

/** `kind`: "too_large", "unsupported", "no_text_layer", "unreadable" or "empty". */
export class DocumentTextError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = "DocumentTextError";
    this.kind = "document";
    this.reason = reason;
  }
}

/** Which reader a file needs, from its type and name. */
export function documentKind(file) {
  const name = (file.name || "").toLowerCase();
  const type = (file.type || "").toLowerCase();
  if (type === "application/pdf" || name.endsWith(".pdf")) return "pdf";
  if (type === "text/html" || type === "application/xhtml+xml" || /\.x?html?$/.test(name)) return "html";
  if (type.startsWith("text/") || name.endsWith(".txt") || name.endsWith(".md") || type === "") return "txt";
  return null;
}

/** `{text, cut, chars}`: the text cut at MAX_DOCUMENT_CHARS code points. */
export function bounded(text) {
  // Code points, as the engine counts characters.
  const chars = Array.from(text);
  const cut = chars.length > MAX_DOCUMENT_CHARS;
  return { text: cut ? chars.slice(0, MAX_DOCUMENT_CHARS).join("") : text, cut, chars: chars.length };
}

// Elements whose text is not the page's text.
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "IFRAME", "OBJECT", "EMBED", "SVG", "CANVAS", "HEAD", "BUTTON", "SELECT", "TEXTAREA", "NAV"]);
// Elements that end a paragraph.
const BLOCK = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "DD", "DIV", "DL", "DT", "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3",
  "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "OL", "P", "PRE", "SECTION", "TABLE", "TD", "TH", "TR", "UL", "CAPTION", "SUMMARY", "DETAILS",
]);

/** The text of an HTML page, one paragraph per block element, blank lines between them. */
export function htmlToText(html) {
  const doc = new DOMParser().parseFromString(html, "text/html"); // inert: scripts never run here
  const paragraphs = [];
  let line = "";
  const flush = () => {
    const t = line.replace(/\s+/g, " ").trim();
    if (t) paragraphs.push(t);
    line = "";
  };
  const walk = (node) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) line += n.nodeValue;
      else if (n.nodeType === 1) {
        const tag = n.tagName.toUpperCase();
        if (SKIP.has(tag) || n.hidden || n.getAttribute("aria-hidden") === "true") continue;
        const block = BLOCK.has(tag);
        if (block) flush();
        walk(n);
        if (block) flush();
      }
    }
  };
  const title = doc.title.trim();
  walk(doc.body || doc.documentElement);
  flush();
  if (title && paragraphs[0] !== title) paragraphs.unshift(title);
  return paragraphs.join("\n\n");
}

/** The text layer of a PDF: one line per text line, a blank line between pages; words cut by a
 * hyphen at a line's end are joined. */
export async function pdfToText(bytes) {
  const pdfjs = await import("./pdfjs/pdf.min.mjs");
  pdfjs.GlobalWorkerOptions.workerSrc = new URL("./pdfjs/pdf.worker.min.mjs", import.meta.url).href;
  let pdf;
  try {
    pdf = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, enableXfa: false, disableFontFace: true, useSystemFonts: false }).promise;
  } catch (e) {
    throw new DocumentTextError("unreadable", `the PDF could not be read: ${e.message || e}`);
  }
  try {
    const pages = [];
    let chars = 0;
    const last = Math.min(pdf.numPages, MAX_PDF_PAGES);
    for (let i = 1; i <= last && chars <= MAX_DOCUMENT_CHARS; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (typeof item.str !== "string") continue;
        text += item.str;
        if (item.hasEOL) text += "\n";
      }
      text = text.replace(/(\p{Ll})-\n(\p{Ll})/gu, "$1$2").replace(/[ \t]+\n/g, "\n").trim();
      pages.push(text);
      chars += text.length;
      page.cleanup();
    }
    return { text: pages.filter(Boolean).join("\n\n"), pages: pdf.numPages, pagesRead: pages.length };
  } finally {
    pdf.destroy();
  }
}

/**
 * `{text, kind, cut, chars, pages?}` for a File or Blob. Throws `DocumentTextError` for a file over
 * `MAX_FILE_BYTES`, a type it cannot read, a PDF without a text layer or one that does not parse, and
 * a file with no text.
 */
export async function documentText(file) {
  const kind = documentKind(file);
  if (!kind) throw new DocumentTextError("unsupported", `${file.name || "the file"} is ${file.type || "of an unknown type"}: give a .txt, .html or .pdf file`);
  if (file.size > MAX_FILE_BYTES) {
    throw new DocumentTextError("too_large", `${file.name || "the file"} is ${(file.size / 1e6).toFixed(1)} MB, over the limit of ${MAX_FILE_BYTES / 1e6} MB`);
  }
  let text;
  let pages;
  if (kind === "pdf") {
    const read = await pdfToText(new Uint8Array(await file.arrayBuffer()));
    if (!/[\p{L}\p{N}]/u.test(read.text)) {
      throw new DocumentTextError("no_text_layer", `${file.name || "the PDF"} has no text layer (a scan?): it would need OCR, which citelens does not do`);
    }
    text = read.text;
    pages = read.pages;
  } else {
    const raw = await file.text();
    text = kind === "html" ? htmlToText(raw) : raw;
  }
  if (!/[\p{L}\p{N}]/u.test(text)) throw new DocumentTextError("empty", `${file.name || "the file"} has no text`);
  const out = bounded(text);
  return { ...out, kind, ...(pages ? { pages } : {}) };
}
