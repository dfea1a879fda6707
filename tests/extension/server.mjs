// The fixture sites for the extension's tests and benchmark, all on 127.0.0.1:
// - "engines": one HTTPS server (a self-signed certificate made here with openssl) that Chromium
//   reaches under the engines' real host names (--host-resolver-rules), so the manifest's match
//   patterns and host permissions are the shipped ones. The Host header picks the fixture page.
// - "cited": plain HTTP pages the answers cite: /cited/* allow cross-origin reads (CORS *), /nocors/*
//   do not (an unreadable source), /pwned counts anything hostile content manages to fetch.
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pdfWithText } from "../browser/pdf.mjs";

const HERE = path.dirname(new URL(import.meta.url).pathname);
export const FIXTURES = path.join(HERE, "fixtures");

/** Engine host + path (+ query) -> fixture file. */
const ROUTES = [
  ["www.perplexity.ai", "/search/hostile", "hostile.html"],
  ["www.perplexity.ai", "/search/", "perplexity.html"],
  ["www.google.com", "/search?udm=50", "google-aimode.html"],
  ["www.google.com", "/search", "google-aio.html"],
  ["www.bing.com", "/copilotsearch", "bing.html"],
  ["www.bing.com", "/generic/", "generic.html"],
  ["chatgpt.com", "/c/", "chatgpt.html"],
  ["search.brave.com", "/search", "brave.html"],
  ["kagi.com", "/search", "kagi.html"],
];
export const ENGINE_HOSTS = [...new Set(ROUTES.map((r) => r[0]))];

function certificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citelens-cert-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "2", "-subj", "/CN=citelens-fixtures"], { stdio: "ignore" });
  const out = { key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

const APOLLO_PDF_LINES = [
  "Apollo 11 mission report",
  "Apollo 11 was the American spaceflight that first landed humans on the Moon.",
  "Neil Armstrong and Buzz Aldrin landed the lunar module Eagle on July 20, 1969.",
  "Michael Collins flew the command module Columbia alone in lunar orbit.",
];

const listen = (server) => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));

/** Starts both servers. `extraCited`: {name: html} served under /cited/ as well (the benchmark's pages). */
export async function startSites({ extraCited = {}, answers = {} } = {}) {
  const pwned = [];
  const citedFetches = [];
  const cited = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname.startsWith("/pwned")) {
      pwned.push(req.url);
      res.end("no");
      return;
    }
    citedFetches.push(url.pathname);
    if (url.pathname === "/cited/apollo.pdf") {
      // The Apollo page as a PDF (a report a search answer cites): read by pdf.js in the offscreen document.
      res.setHeader("content-type", "application/pdf");
      res.setHeader("access-control-allow-origin", "*");
      res.end(pdfWithText(APOLLO_PDF_LINES));
      return;
    }
    const m = /^\/(cited|nocors)\/([\w-]+\.html)$/.exec(url.pathname);
    const body = m && (extraCited[m[2]] ?? (fs.existsSync(path.join(FIXTURES, "cited", m[2])) ? fs.readFileSync(path.join(FIXTURES, "cited", m[2])) : null));
    if (!body) {
      res.statusCode = 404;
      res.end("not found");
      return;
    }
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (m[1] === "cited") res.setHeader("access-control-allow-origin", "*");
    res.end(body);
  });
  const citedPort = await listen(cited);
  const citedBase = `http://127.0.0.1:${citedPort}`;
  const C = { C1: `${citedBase}/cited/eiffel.html`, C2: `${citedBase}/cited/apollo.html`, C3: `${citedBase}/nocors/louvre.html`, C2PDF: `${citedBase}/cited/apollo.pdf`, HOSTILE: `${citedBase}/cited/hostile.html` };
  const fill = (html) =>
    html.replace(/\{\{(\w+?)(_ENC|_B64)?\}\}/g, (_, k, how) => {
      const v = C[k] ?? answers[k];
      if (v == null) return "";
      if (how === "_ENC") return encodeURIComponent(v);
      if (how === "_B64") return Buffer.from(v).toString("base64url");
      return v;
    });
  const engines = https.createServer(certificate(), (req, res) => {
    const host = (req.headers.host || "").replace(/:\d+$/, "");
    if (req.url === "/fixture.js") {
      res.setHeader("content-type", "text/javascript");
      res.end(fs.readFileSync(path.join(FIXTURES, "fixture.js")));
      return;
    }
    if (req.url.startsWith("/pwned")) {
      pwned.push(req.url);
      res.end("no");
      return;
    }
    const route = ROUTES.find(([h, p]) => h === host && req.url.startsWith(p));
    const file = route && (answers[route[2]] ? null : path.join(FIXTURES, route[2]));
    const html = route && (answers[route[2]] ?? fs.readFileSync(file, "utf8"));
    if (!html) {
      res.statusCode = 404;
      res.end("no fixture");
      return;
    }
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(fill(html));
  });
  const enginePort = await listen(engines);
  return {
    enginePort,
    citedBase,
    cited: C,
    pwned,
    citedFetches,
    /** An engine page's URL (the engine's host name, our port). */
    url: (host, pathAndQuery) => `https://${host}:${enginePort}${pathAndQuery}`,
    close() {
      engines.close();
      cited.close();
    },
  };
}
