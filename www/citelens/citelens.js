// citelens for web pages: the JS API and the <cite-lens> custom element, as one ES module.
//
//   import { load, verify } from "./citelens/citelens.js";
//   const report = await verify({ answer: "Paris is in France [1].", citations: [{ id: 1, text: "..." }] });
//
// The model runs in Web Workers (the page never freezes); where module workers are unavailable, the
// same engine runs on the page's thread. Nothing leaves the browser. The parts, by role:
//   api.js       load, verify, documentText, connectWorker
//   backends.js  the worker pool, the page's thread, a citelens-worker server
//   element.js   <cite-lens> (registered on import)
//   assets.js    where the engine's files are served, and CitelensError

export { load, verify, documentText, connectWorker, CitelensError } from "./api.js";
export { CiteLensElement } from "./element.js";
