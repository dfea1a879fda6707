// A real citelens-worker for the browser suites: the binary `cargo test --workspace` builds
// (target/debug/citelens-worker, or $CITELENS_WORKER), on 127.0.0.1 with a throw-away key and the
// given CORS origins; resolves once /health/ready answers.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export async function startWorker({ cors = [], args = [] } = {}) {
  const bin = process.env.CITELENS_WORKER || path.join(ROOT, "target/debug/citelens-worker");
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run cargo test --workspace (or cargo build -p citelens-worker) first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citelens-worker-"));
  const token = `browser-test-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  fs.writeFileSync(path.join(dir, "keys.txt"), `${token}\n`);
  // Port 0: the system picks a free port and the worker's first log line names it. (A random port
  // could be one the system had just handed to an outgoing connection: "Address already in use".)
  const proc = spawn(bin, ["--listen", "127.0.0.1:0", "--keys-file", path.join(dir, "keys.txt"), "--backend", "cpu", ...cors.flatMap((o) => ["--cors", o]), ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  proc.stderr.on("data", (d) => (log += d));
  let url = null;
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode != null) throw new Error(`citelens-worker exited: ${log}`);
    url ??= log.match(/ on (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? null;
    if (!url) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!url) throw new Error(`citelens-worker never said where it listens: ${log}`);
  return {
    url,
    token,
    log: () => log,
    async stop() {
      proc.kill("SIGTERM");
      await new Promise((r) => (proc.exitCode != null ? r() : proc.on("exit", r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
