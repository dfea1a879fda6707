// The JS API with a configured citelens-worker (issue 15): reports computed there say so, and a worker
// that is down, refuses the key or serves another model is not used: the page verifies by itself.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start } from "./browser.mjs";
import { startWorker } from "./worker-process.mjs";

let env;
let worker;
const INPUT = {
  answer: "The Eiffel Tower stands on the Champ de Mars in Paris [1]. It is 500 metres tall [2].",
  citations: [
    { id: "1", text: "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France." },
    { id: "2", text: "The tower is 330 metres tall, about the same height as an 81-storey building." },
  ],
};

before(async () => {
  env = await start();
  worker = await startWorker({ cors: [new URL(env.base).origin] });
});
after(async () => {
  await worker?.stop();
  await env?.close();
});

async function run(options) {
  const page = await env.context.newPage();
  // A page of the site that loads nothing itself (chat.html would load the model before we configure it).
  await page.goto(env.base + "examples.json");
  const out = await page.evaluate(async ({ options, input }) => {
    const { load, verify } = await import(new URL("citelens/citelens.js", location.href).href);
    const info = await load(options);
    const report = await verify(input);
    return { info, computedOn: report.computed_on, verdicts: report.sentences.map((s) => s.verdict.category), spans: report.spans.map((s) => [s.start, s.end, s.label]) };
  }, { options, input: INPUT });
  await page.close();
  return out;
}

test("a configured worker computes the report; the same verdicts as in the browser", async () => {
  const remote = await run({ worker: worker.url, token: worker.token });
  assert.equal(remote.info.mode, "remote", JSON.stringify(remote.info));
  assert.equal(remote.info.backend, "cpu");
  assert.equal(remote.computedOn, "worker");
  const local = await run({});
  assert.equal(local.computedOn, "browser");
  assert.deepEqual(remote.verdicts, local.verdicts);
  assert.deepEqual(remote.spans, local.spans);
  assert.equal(remote.verdicts[0], "supportive");
  assert.notEqual(remote.verdicts[1], "supportive");
});

test("a worker that cannot be used falls back to the browser, and says why", async () => {
  const down = await run({ worker: "http://127.0.0.1:9", token: worker.token });
  assert.equal(down.computedOn, "browser");
  assert.match(down.info.fallback, /cannot be reached/);
  const badKey = await run({ worker: worker.url, token: "not-the-key-0123456789" });
  assert.equal(badKey.computedOn, "browser");
  assert.match(badKey.info.fallback, /bearer token/);
  const otherModel = await run({ worker: worker.url, token: worker.token, workerSha256: "0".repeat(64) });
  assert.equal(otherModel.computedOn, "browser");
  assert.match(otherModel.info.fallback, /not the expected/);
});
