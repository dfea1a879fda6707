// The Web Worker: the engine off the page's thread. Messages in: {id, type: "load", modelBase} and
// {id, type: "verify", input}; out: {id, type: "progress"|"ready"|"partial"|"result"|"error", ...}.
import { loadVerifier, verifyWith } from "./engine.js";

let loading = null;

self.onmessage = async (ev) => {
  const { id, type } = ev.data || {};
  try {
    if (type === "load") {
      loading ??= loadVerifier(ev.data.modelBase, (p) => self.postMessage({ id, type: "progress", progress: p }));
      const { info } = await loading;
      self.postMessage({ id, type: "ready", info });
    } else if (type === "verify") {
      if (!loading) throw Object.assign(new Error("the model is not loaded"), { kind: "not_loaded" });
      const { verifier } = await loading;
      const t = performance.now();
      const report = verifyWith(verifier, ev.data.input, (partial, done, total) =>
        self.postMessage({ id, type: "partial", report: partial, done, total }),
      );
      self.postMessage({ id, type: "result", report, ms: performance.now() - t });
    } else {
      throw new Error(`unknown message type ${JSON.stringify(type)}`);
    }
  } catch (e) {
    if (type === "load") loading = null; // let a later load try again
    self.postMessage({ id, type: "error", kind: e.kind || "verify", message: String(e.message || e) });
  }
};
