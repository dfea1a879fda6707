// A static file server for the built demo on 127.0.0.1 (no server code runs for the app itself: this
// only hands out files). Usage: node scripts/serve.mjs [dir=dist] [port=8080] [/mount=dir ...]
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".json": "application/json", ".wasm": "application/wasm", ".onnx": "application/octet-stream",
  ".svg": "image/svg+xml", ".png": "image/png", ".map": "application/json",
};

/** Serves `root` at "/" and each `[prefix, dir]` of `mounts`; resolves to the http.Server once listening. */
export function serve(root, port = 0, mounts = []) {
  const table = [...mounts, ["/", root]].map(([prefix, dir]) => [prefix, path.resolve(dir)]);
  const server = http.createServer((req, res) => {
    let url;
    try {
      url = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const [prefix, dir] = table.find(([p]) => url.startsWith(p));
    let file = path.join(dir, url.slice(prefix.length));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      // Revalidated on every use, like a typical static host: unchanged files answer 304.
      const modified = st.mtime.toUTCString();
      if (req.headers["if-modified-since"] === modified) {
        res.writeHead(304, { "last-modified": modified, "cache-control": "no-cache" }).end();
        return;
      }
      const headers = { "content-type": TYPES[path.extname(file)] || "application/octet-stream", "cache-control": "no-cache", "last-modified": modified };
      // A gzipped twin written at build time (scripts/precompress.sh) is sent to a browser that
      // accepts gzip, as static hosts do (nginx's gzip_static).
      const packed = `${file}.gz`;
      const packedStat = /\bgzip\b/.test(req.headers["accept-encoding"] || "") && fs.statSync(packed, { throwIfNoEntry: false });
      if (packedStat) {
        res.writeHead(200, { ...headers, "content-encoding": "gzip", vary: "accept-encoding", "content-length": packedStat.size });
        fs.createReadStream(packed).pipe(res);
        return;
      }
      res.writeHead(200, { ...headers, "content-length": st.size });
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir = "dist", port = "8080", ...rest] = process.argv.slice(2);
  const mounts = rest.map((m) => m.split("="));
  const server = await serve(dir, Number(port), mounts);
  console.log(`citelens demo: http://127.0.0.1:${server.address().port}/  (serving ${path.resolve(dir)}; Ctrl-C stops)`);
}
