#!/usr/bin/env bash
# citelens' main job: build the browser demo (Trunk, release, shipped model) and serve it on
# 127.0.0.1, printing the URL. Installs what it needs first. PORT=8080 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-web.sh
trunk build --release
echo "dist/ is a static folder: any static host serves it, under any path."
exec node scripts/serve.mjs dist "${PORT:-8080}"
