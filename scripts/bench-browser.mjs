// Browser benchmarks in headless Chromium, same run: (1) the shipped model through tract in our wasm
// vs onnxruntime-web (npm), same pairs, per-pair latency and ratio; (2) the demo: first model load
// from local disk, and a typical answer (3 sentences, 2 citations of ~60 words) verified after loading;
// (3) what a first visit downloads. Run after `trunk build --release`: node scripts/bench-browser.mjs
import fs from "node:fs";
import path from "node:path";
import { start, ROOT, DIST } from "../tests/browser/browser.mjs";

const iters = Number(process.env.ITERS || 20);
const env = await start([["/ort/", path.join(ROOT, "node_modules/onnxruntime-web/dist")], ["/bench.html", path.join(ROOT, "www/bench.html")]]);
try {
  // The demo: first visit (empty cache), model load, then a typical answer.
  const demo = await env.context.newPage();
  const bytes = { total: 0, wasm: 0, model: 0, files: 0 };
  demo.on("response", async (res) => {
    const len = (await res.request().sizes().catch(() => ({ responseBodySize: 0 }))).responseBodySize;
    bytes.total += len;
    bytes.files += 1;
    if (res.url().endsWith(".wasm")) bytes.wasm += len;
    if (res.url().includes("model.onnx")) bytes.model += len;
  });
  const t0 = Date.now();
  await demo.goto(env.base);
  await demo.waitForSelector('#model-status[data-state="ready"]', { timeout: 120_000 });
  const pageToReady = Date.now() - t0;
  const status = await demo.textContent("#model-status");
  const typical = {
    question: "Who directed The Puppetoon Movie, and what does it collect?",
    answer: "The Puppetoon Movie is a 1987 animated film directed by Arnold Leibovit [1]. It collects the stop-motion shorts that George Pal made for Paramount in the 1940s [1][2]. Pal won an honorary Academy Award in 1944 for developing the Puppetoons technique [2].",
    citations: [
      { id: 1, title: "The Puppetoon Movie", text: "The Puppetoon Movie is a 1987 American animated film written, produced, and directed by Arnold Leibovit. The film is a compilation of the stop-motion Puppetoons shorts that George Pal made for Paramount Pictures during the 1940s, tied together with new linking scenes featuring Gumby, Pokey and Arnie the Dinosaur. It was released in cinemas in 1987 and later on home video." },
      { id: 2, title: "George Pal", text: "George Pal was a Hungarian-American animator, film director and producer, principally associated with the fantasy and science-fiction genres. In 1944 he received an honorary Academy Award for the development of novel methods and techniques in the production of short subjects known as Puppetoons. He later produced films such as Destination Moon and The War of the Worlds." },
    ],
  };
  const words = typical.citations.map((c) => c.text.split(/\s+/).length);
  // Timed in the page, from the click on Verify to the full report on screen (the run counter on
  // the report panel changes when it is rendered); the first run also warms the other workers.
  let runCount = 0;
  async function timeAnswer(doc, times) {
    const runs = [];
    for (let i = 0; i < times; i++) {
      runCount += 1;
      await demo.$eval("details", (d) => (d.open = true));
      await demo.fill("#json-input", JSON.stringify(doc));
      await demo.click("#load-json");
      await demo.evaluate((n) => {
        const panel = document.querySelector(".output-panel");
        window.__done = new Promise((resolve) => {
          const obs = new MutationObserver(() => {
            if (panel.dataset.runs === String(n)) {
              obs.disconnect();
              resolve(performance.now());
            }
          });
          obs.observe(panel, { attributes: true });
        });
        document.querySelector("#verify").addEventListener("click", () => (window.__clicked = performance.now()), { once: true });
      }, runCount);
      await demo.click("#verify");
      runs.push(await demo.evaluate(async () => (await window.__done) - window.__clicked));
      if (runCount === 1) await demo.waitForTimeout(3000); // let the other workers finish loading the model
    }
    return runs;
  }
  // Medians of 5 timed runs each (the typical answer's first run, while the other workers still
  // load the model, is shown apart and not counted).
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const runs = await timeAnswer(typical, 6);
  // The issue's Brooklyn Bridge answer (4 sentences, 2 citations): the first line of the regression suite.
  const brooklynLine = fs.readFileSync(path.join(ROOT, "tests/fixtures/cases.jsonl"), "utf8").split("\n")[0];
  const { question, answer, citations } = JSON.parse(brooklynLine);
  const brooklyn = await timeAnswer({ question, answer, citations }, 5);
  const brooklynTiming = await demo.textContent("#timing");
  const timing = await demo.textContent("#timing");
  console.log(`\ndemo, first visit: page load to model ready ${pageToReady} ms (${status.trim()})`);
  console.log(`typical answer (3 sentences, 2 citations of ${words.join(" and ")} words): click to full report median ${median(runs.slice(1)).toFixed(0)} ms of ${runs.slice(1).map((r) => r.toFixed(0)).join(", ")} ms (first run, other workers still loading: ${runs[0].toFixed(0)} ms) (${timing.trim()})`);
  console.log(`Brooklyn Bridge answer (4 sentences, 2 citations): click to full report median ${median(brooklyn).toFixed(0)} ms of ${brooklyn.map((r) => r.toFixed(0)).join(", ")} ms (${brooklynTiming.trim()}; target 300 ms)`);
  // Bytes over the wire (the response bodies as sent: gzipped where dist/ has a .gz twin, as a static
  // host with gzip_static serves them).
  console.log(`first visit downloads (over the wire): ${(bytes.total / 1e6).toFixed(2)} MB in ${bytes.files} files; wasm ${(bytes.wasm / 1e6).toFixed(2)} MB; model ${(bytes.model / 1e6).toFixed(2)} MB`);
  const appWasm = fs.readdirSync(DIST).filter((f) => f.endsWith(".wasm")).map((f) => [f, fs.statSync(path.join(DIST, f)).size]);
  for (const [f, s] of appWasm) console.log(`app wasm (UI, after wasm-opt): ${f} ${(s / 1e6).toFixed(2)} MB (limit 3 MB)`);
  const packedSize = (f) => (fs.existsSync(`${f}.gz`) ? ` (gzipped ${(fs.statSync(`${f}.gz`).size / 1e6).toFixed(2)} MB)` : " (no gzipped twin)");
  const enginePath = path.join(DIST, "citelens/pkg/citelens_wasm_bg.wasm");
  const modelPath = path.join(DIST, "citelens/model/model.onnx");
  console.log(`engine wasm (tract + tokenizer + engine, worker): ${(fs.statSync(enginePath).size / 1e6).toFixed(2)} MB${packedSize(enginePath)}`);
  console.log(`model file: ${(fs.statSync(modelPath).size / 1e6).toFixed(2)} MB${packedSize(modelPath)}`);
  // The peer comparison, after the demo so that the demo's first visit starts from an empty cache.
  const page = await env.context.newPage();
  await page.goto(`${env.base}bench.html?iters=${iters}`);
  await page.waitForFunction(() => window.benchResult, null, { timeout: 300_000 });
  const r = await page.evaluate(() => window.benchResult);
  if (r.error) throw new Error(r.error);
  console.log(`NLI model in ${r.userAgent.match(/Chrome\/[\d.]+/)?.[0]}, one thread each, median of ${r.iters}:`);
  console.log(`load: tract ${r.tract_load_ms.toFixed(0)} ms, onnxruntime-web ${r.ort_load_ms.toFixed(0)} ms`);
  console.log("tokens  tract ms/pair  onnxruntime-web ms/pair  tract/ort  max |logit diff|  same argmax");
  for (const l of r.lengths) {
    console.log(`${String(l.tokens).padStart(6)}  ${l.tract_ms.toFixed(2).padStart(13)}  ${l.ort_ms.toFixed(2).padStart(23)}  ${l.ratio_tract_over_ort.toFixed(2).padStart(8)}x  ${l.max_logit_diff.toExponential(2).padStart(15)}  ${l.same_argmax}`);
  }
  await page.close();

} finally {
  await env.close();
}
