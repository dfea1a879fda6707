// Shared set-up for the browser tests and the browser benchmark: serve dist/ on 127.0.0.1 and start
// Debian's Chromium, headless, through playwright-core, with a fresh profile.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const DIST = path.join(ROOT, "dist");
export const ARTIFACTS = path.join(ROOT, "target", "browser-artifacts");

export async function start(mounts = []) {
  if (!fs.existsSync(path.join(DIST, "index.html"))) throw new Error("dist/ is missing: run `trunk build --release` first");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // The same folder also under a deeper path: the demo must not assume it sits at the site's root.
  const server = await serve(DIST, 0, [["/some/deeper/path/", DIST], ...mounts]);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "citelens-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  return {
    base,
    context,
    async close() {
      await context.close();
      server.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
