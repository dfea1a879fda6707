// The `citelens` npm package as a web developer gets it: `npm install` of the packed tarball
// (scripts/build-npm.sh) into a scratch site, a page that imports the installed module, loads it with
// `assetsUrl` pointing at node_modules/citelens/, and verifies a cited answer in headless Chromium;
// then its TypeScript declarations are checked (`tsc --strict`) against the reports it produced.
// Run: node --test tests/browser/ (after `trunk build --release` and `bash scripts/build-npm.sh`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { start, ROOT } from "./browser.mjs";

const NPM_OUT = path.join(ROOT, "target/npm");
const CLI = process.env.CITELENS_BIN || path.join(ROOT, "target/debug/citelens");

const input = {
  question: "When did the Brooklyn Bridge open, and who designed it?",
  answer: "The Brooklyn Bridge opened in 1883 [1]. It was designed by John Augustus Roebling [2]. It opened in 1901 [1].",
  citations: [
    { id: "1", title: "Brooklyn Bridge", text: "The Brooklyn Bridge opened to traffic on May 24, 1883, after fourteen years of construction." },
    { id: "2", title: "John A. Roebling", text: "John Augustus Roebling was a German-born American civil engineer who designed the Brooklyn Bridge." },
  ],
};

let scratch;
let env;

before(async () => {
  const tarballs = fs.existsSync(NPM_OUT) ? fs.readdirSync(NPM_OUT).filter((f) => /^citelens-.*\.tgz$/.test(f)) : [];
  assert.equal(tarballs.length, 1, `expected one packed tarball in target/npm/ (run bash scripts/build-npm.sh), found ${tarballs}`);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "citelens-npm-"));
  fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch-site", private: true }));
  // A local tarball with no dependencies installs without the network.
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", path.join(NPM_OUT, tarballs[0])], { cwd: scratch, stdio: "pipe" });
  fs.writeFileSync(
    path.join(scratch, "index.html"),
    `<!doctype html><meta charset="utf-8"><body><div id="host"></div>
<script type="module">
  import { load, verify, CitelensError } from "./node_modules/citelens/citelens.js";
  window.__result = (async () => {
    try {
      const info = await load({ assetsUrl: "./node_modules/citelens/" });
      const report = await verify(${JSON.stringify(input)});
      const bad = await verify({ answer: 42 }).then(() => null, (e) => ({ isTyped: e instanceof CitelensError, kind: e.kind }));
      const lens = document.createElement("cite-lens");
      const shown = new Promise((resolve) => lens.addEventListener("citelens-result", (e) =>
        resolve({ category: e.detail.overall.category, decidedBy: lens.shadowRoot.querySelector('[part="decided-by"]')?.textContent })));
      lens.input = ${JSON.stringify(input)};
      document.querySelector("#host").append(lens);
      return { info, report, bad, element: await shown };
    } catch (e) {
      return { error: String(e && e.stack || e) };
    }
  })();
</script>`,
  );
  env = await start([["/scratch/", scratch]]);
});

after(async () => {
  await env?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test("the packed npm package installs, loads from assetsUrl and verifies like the native engine", async () => {
  const installed = JSON.parse(fs.readFileSync(path.join(scratch, "node_modules/citelens/package.json"), "utf8"));
  assert.equal(installed.name, "citelens");
  assert.equal(installed.types, "./citelens.d.ts");
  for (const f of ["citelens.js", "citelens.d.ts", "worker.js", "engine.js", "pkg/citelens_wasm_bg.wasm", "model/model.onnx", "model/tokenizer.json"]) {
    assert.ok(fs.existsSync(path.join(scratch, "node_modules/citelens", f)), `the installed package lacks ${f}`);
  }
  const page = await env.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${env.base}scratch/index.html`);
  const result = await page.evaluate(() => window.__result);
  assert.equal(result.error, undefined, result.error);
  assert.deepEqual(errors, []);
  assert.equal(result.info.mode, "worker");
  const native = JSON.parse(execFileSync(CLI, ["verify", "--input", "-"], { input: JSON.stringify(input), cwd: ROOT }).toString());
  const { report } = result;
  assert.equal(report.computed_on, "browser");
  assert.equal(report.sentences.length, 3);
  assert.deepEqual(
    report.sentences.map((s) => s.verdict?.category),
    native.sentences.map((s) => s.verdict?.category),
  );
  assert.equal(report.overall.category, native.overall.category);
  // The 1901 sentence is denied by its source: a package that verified nothing would not say so.
  assert.equal(report.sentences[2].verdict.category, "contradictory");
  assert.deepEqual(result.bad, { isTyped: true, kind: "input" });
  assert.equal(result.element.category, report.overall.category);
  assert.equal(result.element.decidedBy, "checked in this browser with the model citelens-nli-minilm");
  await page.close();

  // The declarations against what the package really returned: an excess, missing or mistyped
  // field in either fails `tsc --strict`.
  const tsc = path.join(ROOT, "node_modules/.bin/tsc");
  assert.ok(fs.existsSync(tsc), "node_modules/.bin/tsc is missing: run scripts/setup-web.sh (npm ci)");
  fs.writeFileSync(
    path.join(scratch, "check.ts"),
    `import type { Report, Input, LoadInfo } from "citelens";
import { load, verify } from "citelens";
const input: Input = ${JSON.stringify(input)};
const report: Report = ${JSON.stringify(report)};
const native: Report = ${JSON.stringify(native)};
const loaded: Promise<LoadInfo> = load({ assetsUrl: "/citelens/" });
const verified: Promise<Report> = verify(input, { onSentence: (partial, done, total) => void [partial.sentences, done, total] });
export { report, native, loaded, verified };
`,
  );
  try {
    execFileSync(tsc, ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom", "check.ts"], { cwd: scratch, stdio: "pipe" });
  } catch (e) {
    assert.fail(`tsc --strict on the package's declarations failed:\n${e.stdout}${e.stderr}`);
  }
});
