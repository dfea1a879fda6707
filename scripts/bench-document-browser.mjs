// Issue 13's browser figure: a five-sentence answer verified against a 10,000-word document through
// the JS API (`verify()` in the worker pool, the demo's path), after the model is loaded, in Debian's
// Chromium on this machine. Run by scripts/bench-document.sh after it has written the document and
// timed the native CLI on it, so both figures come from the same run:
//   node scripts/bench-document-browser.mjs DOCUMENT ANSWER [RUNS]
import fs from "node:fs";
import { start } from "../tests/browser/browser.mjs";

const [docPath, answerPath, runsArg] = process.argv.slice(2);
if (!docPath || !answerPath) {
  console.error("usage: node scripts/bench-document-browser.mjs DOCUMENT ANSWER [RUNS]");
  process.exit(2);
}
const document = fs.readFileSync(docPath, "utf8");
const answer = fs.readFileSync(answerPath, "utf8").trim();
const runs = Number(runsArg || 3);
const input = { answer, citations: [{ id: "1", title: "document", document }] };

const env = await start();
try {
  const page = await env.context.newPage();
  await page.goto(env.base + "chat.html");
  const result = await page.evaluate(async ({ input, runs }) => {
    const { load, verify } = await import("./citelens/citelens.js");
    const info = await load();
    // A first run lets every worker finish loading its copy of the model; it is not counted.
    await verify(input);
    const times = [];
    let report;
    let candidates = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      report = await verify(input, { onProgress: (p) => (candidates = p.total) });
      times.push(performance.now() - t0);
    }
    return { info, times, candidates, pairs: report.pairs_scored, sentences: report.sentences.length, verdicts: report.sentences.map((s) => s.verdict?.category) };
  }, { input, runs });
  const sorted = result.times.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const words = document.split(/\s+/).filter(Boolean).length;
  console.log(`browser (${result.info.mode}, ${result.info.workers} worker(s)): ${words} words, answer of ${result.sentences} sentences: ${result.candidates} candidate pairs in round one, ${result.pairs} pairs scored`);
  console.log(`runs: ${result.times.map((t) => (t / 1000).toFixed(3)).join(", ")} s; median of ${runs}: ${(median / 1000).toFixed(3)} s (target ≤ 3 s)`);
  console.log(`verdicts: ${result.verdicts.join(", ")}`);
  await page.close();
} finally {
  await env.close();
}
