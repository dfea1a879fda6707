// Issue 14's figure: time from "answer finished" to highlights on the page, with the extension loaded
// in Debian's Chromium (headless, new mode) and the model loaded: a Perplexity-shaped answer of five
// sentences citing three pages of about 2,000 words each (Evidence Inference articles from
// ../shared/data, served from 127.0.0.1; never committed). Each measured run cites fresh URLs, so the
// pages are fetched and read every time (not taken from the extension's per-URL cache).
//   node scripts/bench-extension.mjs [RUNS]        (after scripts/build-extension.sh)
import fs from "node:fs";
import path from "node:path";
import { startSites } from "../tests/extension/server.mjs";
import { launchWithExtension, waitForOverlay, overlayState } from "../tests/extension/launch.mjs";

const runs = Number(process.argv[2] || 3);
const data = process.env.CITELENS_DATA_DIR || path.resolve("../shared/data");
const txt = path.join(data, "long_document/evidence_inference/txt_files");
const ARTICLES = ["PMC101395", "PMC102323", "PMC1065065"];
const WORDS = 2000;

const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const pages = {};
const firstSentences = [];
ARTICLES.forEach((id, i) => {
  const paras = fs.readFileSync(path.join(txt, `${id}.txt`), "utf8").split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const kept = [];
  let words = 0;
  for (const p of paras) {
    if (words >= WORDS) break;
    kept.push(p);
    words += p.split(/\s+/).length;
  }
  // The text files put headings and table cells on lines of their own; <br> keeps them apart, as the
  // blocks and cells of a real page do.
  pages[`bench${i + 1}.html`] = `<!doctype html><html><head><title>${escape(kept[0].slice(0, 120))}</title></head><body><nav><a href="/">Journal</a></nav><article>${kept.map((p) => `<p>${p.split("\n").map(escape).join("<br>")}</p>`).join("\n")}</article></body></html>`;
  // The abstract's first sentence (the paragraph after the title).
  firstSentences.push(((kept[1] || kept[0]).match(/^.*?[.!?](?=\s|$)/) || [kept[1] || kept[0]])[0]);
  console.log(`page ${i + 1}: ${id}, ${words} words`);
});
const answerSentences = fs.readFileSync("tests/fixtures/long_document/answer_pmc101395.txt", "utf8").trim().match(/[^.]+\./g).slice(0, 3).map((s) => s.trim());

function perplexityPage(run) {
  const cite = (n) => `<a class="citation" href="{{CITED}}/cited/bench${n}.html?run=${run}"><span>source</span></a>`;
  const body = `<p>${answerSentences.map((s) => escape(s) + cite(1)).join(" ")}</p><p>${escape(firstSentences[1])}${cite(2)} ${escape(firstSentences[2])}${cite(3)}</p>`;
  const fixture = fs.readFileSync("tests/extension/fixtures/perplexity.html", "utf8");
  return fixture.replace(/const ANSWER = `[^`]*`;/, `const ANSWER = \`${body.replace(/`/g, "'")}\`;`);
}

const sites = await startSites({ extraCited: pages, answers: {} });
const browser = await launchWithExtension();
try {
  const html = {};
  for (let r = 0; r <= runs; r++) html[r] = perplexityPage(r).replaceAll("{{CITED}}", sites.citedBase);
  const times = [];
  let last;
  for (let r = 0; r <= runs; r++) {
    const page = await browser.context.newPage();
    await page.addInitScript(() => {
      const watch = setInterval(() => {
        if (CSS.highlights.size > 0) {
          window.__highlightAt = performance.now();
          clearInterval(watch);
        }
      }, 2);
    });
    await page.route("**/search/bench*", (route) => route.fulfill({ status: 200, contentType: "text/html", body: html[r] }));
    await page.goto(sites.url("www.perplexity.ai", `/search/bench?run=${r}&step=20`));
    await waitForOverlay(page, 120000);
    await page.waitForFunction(() => window.__highlightAt && window.__finishedAt);
    const ms = await page.evaluate(() => window.__highlightAt - window.__finishedAt);
    last = await overlayState(page);
    const timings = await browser.worker.evaluate(async () => {
      const all = await chrome.storage.session.get(null);
      const answers = Object.values(all).flatMap((t) => Object.values(t.answers || {}));
      return answers.sort((a, b) => b.started - a.started)[0]?.timings;
    });
    // Run 0 loads the model in every worker: not counted.
    if (r > 0) times.push(ms);
    console.log(`${r === 0 ? "warm-up" : `run ${r}`}: ${(ms / 1000).toFixed(3)} s from "answer finished" to highlights (pages read in ${timings.readMs} ms, verified in ${timings.verifyMs} ms, ${timings.pairs} pairs scored, ${timings.mode} mode, ${timings.workers} worker(s))`);
    await page.close();
  }
  const sorted = times.slice().sort((a, b) => a - b);
  console.log(`extension: 3 cited pages of ~${WORDS} words, answer of 5 sentences; median of ${runs}: ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(3)} s (target ≤ 3 s)`);
  console.log(`badges: ${last.badges.filter((b) => b.kind === "sentence").map((b) => b.label.replace(/^citelens: /, "")).join(" | ")}`);
  if (sites.pwned.length) throw new Error("unexpected fetches");
} finally {
  await browser.close();
  sites.close();
}
