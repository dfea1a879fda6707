// Per-pair latency of the shipped NLI model in wasm (tract, SIMD, one thread) under Node.
// Usage: node scripts/wasm-bench.cjs <wasm-bindgen nodejs pkg dir> <model dir> [iters]
const path = require("path");
const fs = require("fs");

const [pkgDir, modelDir, itersArg] = process.argv.slice(2);
if (!pkgDir || !modelDir) {
  console.error("usage: node scripts/wasm-bench.cjs <pkg dir> <model dir> [iters]");
  process.exit(2);
}
const iters = Number(itersArg || 30);
const { Nli } = require(path.resolve(pkgDir, "citelens_wasm.js"));
const read = (f) => fs.readFileSync(path.join(modelDir, f));

const PREMISE = "The Puppetoon Movie is a 1987 animated film written, produced, and directed by Arnold " +
  "Leibovit. It collects the stop-motion shorts George Pal made for Paramount in the 1940s, with new linking scenes.";
const HYPOTHESIS = "George Pal directed a production called Puppetoons.";

let t = performance.now();
const nli = new Nli(read("model.onnx"), read("tokenizer.json"), read("config.json"));
const loadMs = performance.now() - t;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const tokens of [64, 128]) {
  for (let i = 0; i < 3; i++) nli.logitsAtLength(PREMISE, HYPOTHESIS, tokens, 1);
  const single = [];
  for (let i = 0; i < iters; i++) {
    t = performance.now();
    nli.logitsAtLength(PREMISE, HYPOTHESIS, tokens, 1);
    single.push(performance.now() - t);
  }
  const batched = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    nli.logitsAtLength(PREMISE, HYPOTHESIS, tokens, 16);
    batched.push((performance.now() - t) / 16);
  }
  rows.push({ tokens, ms_per_pair_batch1: median(single), ms_per_pair_batched: median(batched) });
}
const p = JSON.parse(nli.predict(PREMISE, HYPOTHESIS));
console.log(JSON.stringify({ runtime: "tract wasm32 (simd128) under node " + process.version, load_ms: loadMs, batch: 16, lengths: rows, check: p.probabilities }));
