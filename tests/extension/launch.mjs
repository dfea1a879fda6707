// Debian's Chromium with the unpacked extension (dist-extension/, from scripts/build-extension.sh),
// headless (new mode), a fresh profile, the engines' host names mapped to the fixture server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { ENGINE_HOSTS } from "./server.mjs";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const EXTENSION = process.env.CITELENS_EXTENSION || path.join(ROOT, "dist-extension");

export async function launchWithExtension() {
  if (!fs.existsSync(path.join(EXTENSION, "manifest.json"))) throw new Error(`${EXTENSION} is missing: run scripts/build-extension.sh first`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "citelens-ext-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: false, // the flag below: extensions need the new headless mode
    args: [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...(process.env.CITELENS_CHROMIUM_ARGS ? process.env.CITELENS_CHROMIUM_ARGS.split(" ") : []),
      `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`,
      // Only our self-signed fixture server is reached under these names.
      "--ignore-certificate-errors",
      `--host-resolver-rules=${ENGINE_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(", ")}, EXCLUDE 127.0.0.1`,
    ],
  });
  let [worker] = context.serviceWorkers();
  worker ??= await context.waitForEvent("serviceworker", { timeout: 20000 });
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    worker,
    extensionId,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The tab id of a page (the service worker knows it by URL). */
export async function tabIdOf(worker, page) {
  const url = page.url();
  return worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
}

/** Waits until the page shows citelens' highlights and its sentence badges are painted. */
export async function waitForOverlay(page, timeout = 60000) {
  await page.waitForFunction(() => document.querySelectorAll("citelens-badge[data-citelens-badge='sentence']").length > 0 && CSS.highlights.size > 0, null, { timeout, polling: 50 });
}

/** What the overlay shows: highlight names with their ranges' texts, and the badges' labels. */
export function overlayState(page) {
  return page.evaluate(() => {
    const highlights = {};
    for (const [name, h] of CSS.highlights) highlights[name] = [...h].map((r) => r.toString());
    const badges = [...document.querySelectorAll("citelens-badge")].map((b) => ({ kind: b.dataset.citelensBadge, label: b.getAttribute("aria-label"), shadow: b.shadowRoot === null }));
    return { highlights, badges };
  });
}
