// The extension's pure helpers, in Node: citation links unwrapped (redirects, tracking, text-fragment
// hints, refused schemes) and the text fragments of "open evidence" links.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { textFragment } from "../../extension/fragment.js";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
// content/extract.js is a content script (a classic script that sets a global): run it in a context.
const sandbox = { URL, atob, location: { href: "https://www.google.com/search?q=x" } };
sandbox.globalThis = sandbox;
vm.runInNewContext(fs.readFileSync(path.join(ROOT, "extension/content/extract.js"), "utf8"), sandbox);
const { unwrapCitation } = sandbox.citelensExtract;
const base = "https://www.google.com/search?q=x";

test("redirect wrappers are unwrapped to the cited page", () => {
  const target = "https://en.wikipedia.org/wiki/Eiffel_Tower";
  assert.equal(unwrapCitation(`/url?q=${encodeURIComponent(target)}&sa=U&ved=2ah`, base).url, target);
  assert.equal(unwrapCitation(`https://www.google.co.uk/url?url=${encodeURIComponent(target)}`, base).url, target);
  const b64 = Buffer.from(target).toString("base64url");
  assert.equal(unwrapCitation(`https://www.bing.com/ck/a?!&&p=abc&u=a1${b64}&ntb=1`, base).url, target);
  // A redirect inside a redirect.
  assert.equal(unwrapCitation(`/url?q=${encodeURIComponent(`https://www.bing.com/ck/a?u=a1${b64}`)}`, base).url, target);
});

test("engine tracking is dropped, the page's own query kept", () => {
  assert.equal(unwrapCitation("https://example.org/a?id=7&utm_source=chatgpt.com", base).url, "https://example.org/a?id=7");
  assert.equal(unwrapCitation("https://example.org/a?utm_source=newsletter", base).url, "https://example.org/a?utm_source=newsletter");
});

test("a text-fragment quote is kept as a hint and taken off the URL", () => {
  const got = unwrapCitation("https://example.org/page#:~:text=Champ%20de%20Mars,in%20Paris", base);
  assert.equal(got.url, "https://example.org/page");
  assert.equal(got.hint, "Champ de Mars … in Paris");
  const withContext = unwrapCitation("https://example.org/p#intro:~:text=built-,from%201887,to%201889,-as", base);
  assert.equal(withContext.url, "https://example.org/p#intro");
  assert.equal(withContext.hint, "from 1887 … to 1889");
});

test("only web addresses are sources", () => {
  assert.equal(unwrapCitation("javascript:fetch('/x')", base), null);
  assert.equal(unwrapCitation("data:text/html,<script>1</script>", base), null);
  assert.equal(unwrapCitation(`/url?q=${encodeURIComponent("javascript:alert(1)")}`, base), null);
  assert.equal(unwrapCitation("http://[bad", base), null);
});

test("text fragments encode what their syntax reserves, and long quotes by their ends", () => {
  assert.equal(textFragment("The tower is 330 metres tall."), "#:~:text=The%20tower%20is%20330%20metres%20tall.");
  assert.equal(textFragment("well-known, loved & visited"), "#:~:text=well%2Dknown%2C%20loved%20%26%20visited");
  assert.equal(
    textFragment("Constructed from 1887 to 1889 as the centrepiece of the 1889 World's Fair, it was criticised."),
    "#:~:text=Constructed%20from%201887%20to,Fair%2C%20it%20was%20criticised.",
  );
});
