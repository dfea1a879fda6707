#!/usr/bin/env bash
# Installs what building and testing the browser app needs, skipping what is already there:
# the wasm32 target, Trunk 0.21.14 and wasm-bindgen-cli (crates.io), binaryen's wasm-opt, Playwright
# and onnxruntime-web (npm, from package-lock.json), Chromium, ChromeDriver and nginx (Debian).
# Source it (it puts node_modules/.bin first on PATH).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
rustup component list --installed | grep -q "^rustfmt" || rustup component add rustfmt
rustup component list --installed | grep -q "^clippy" || rustup component add clippy
if ! trunk --version 2>/dev/null | grep -q ' 0.21.14'; then
  cargo install --locked trunk --version 0.21.14   # 0.22 needs a newer rustc
fi
want=$(cargo metadata --format-version 1 --locked | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="wasm-bindgen"))')
if ! wasm-bindgen --version 2>/dev/null | grep -q " $want"; then
  cargo install wasm-bindgen-cli --version "$want"   # not --locked: its lockfile pins a crate the registry lacks
fi
grep -q "wasm_bindgen = \"$want\"" Trunk.toml || { echo "setup-web: Trunk.toml [tools] must pin wasm_bindgen = \"$want\"" >&2; exit 1; }
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/onnxruntime-web ] || [ ! -d node_modules/pdfjs-dist ] || [ ! -d node_modules/@mozilla/readability ] || [ ! -x node_modules/.bin/tsc ]; then
  npm ci --no-audit --no-fund
fi
# nginx: the worker's load test balances two replicas with it (deploy/nginx/).
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y nginx-light || { apt-get update && apt-get install -y nginx-light; }
  else sudo apt-get install -y nginx-light; fi
fi
export PATH="$PATH:/usr/sbin"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y chromium chromium-driver || { apt-get update && apt-get install -y chromium chromium-driver; }
  else sudo apt-get install -y chromium chromium-driver; fi
fi
