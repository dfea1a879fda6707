// A Web Worker holding one copy of the engine and model, off the page's thread. Messages in:
// {id, type: "load", modelBase}, and the engine in stages for the worker pool: "candidates" {input}
// (round one with long documents: the candidate evidence pairs), "prepare" {input, roundOne} (plans
// once, from round one's scores when given; returns the streaming steps), "pairs" {input}, "score"
// {pairs}, "assemble" {input, scores, upto}.
// Out: {id, type: "progress"|"ready"|"result"|"error", ...}.
import { loadVerifier } from "./engine.js";

let loading = null;

async function verifier() {
  if (!loading) throw Object.assign(new Error("the model is not loaded"), { kind: "not_loaded" });
  return (await loading).verifier;
}

self.onmessage = async (ev) => {
  const { id, type } = ev.data || {};
  try {
    if (type === "load") {
      loading ??= loadVerifier(ev.data.modelBase, (p) => self.postMessage({ id, type: "progress", progress: p }));
      const { info } = await loading;
      self.postMessage({ id, type: "ready", info });
    } else if (type === "candidates" || type === "pairs") {
      self.postMessage({ id, type: "result", out: (await verifier())[type](ev.data.input) });
    } else if (type === "prepare") {
      self.postMessage({ id, type: "result", out: (await verifier()).prepare(ev.data.input, ev.data.roundOne) });
    } else if (type === "score") {
      self.postMessage({ id, type: "result", out: (await verifier()).score(ev.data.pairs) });
    } else if (type === "assemble") {
      self.postMessage({ id, type: "result", out: (await verifier()).assemble(ev.data.input, ev.data.scores, ev.data.upto) });
    } else {
      throw new Error(`unknown message type ${JSON.stringify(type)}`);
    }
  } catch (e) {
    if (type === "load") loading = null; // let a later load try again
    self.postMessage({ id, type: "error", kind: e.kind || "verify", message: String(e.message || e) });
  }
};
