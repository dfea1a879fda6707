#!/usr/bin/env bash
# Packs the `citelens` npm package from the engine the demo build staged:
#   bash scripts/build-npm.sh     -> target/npm/citelens/ (the package folder) and target/npm/citelens-VERSION.tgz
# Needs dist/ (`trunk build --release`: the engine's wasm, the model, pdf.js). The package's module is
# the demo's own www/citelens/citelens.js; its declarations, README and example are packaging/npm/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/npm
pkg="$out/citelens"
rm -rf "$out"
bash scripts/copy-engine.sh build-npm "$pkg"
rm -f "$pkg/pkg/.gitignore" "$pkg/pkg/package.json"
cp models/citelens-nli-minilm/MODEL.md "$pkg/model/"
cp -r packaging/npm/. "$pkg/"
# The package's version is the workspace's.
version=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="citelens-wasm"))')
python3 - "$pkg/package.json" "$version" <<'PY'
import json, sys
path, version = sys.argv[1], sys.argv[2]
p = json.load(open(path))
p["version"] = version
open(path, "w").write(json.dumps(p, indent=2) + "\n")
PY
# Every file the package lists must be there (npm pack would silently leave a missing one out).
python3 - "$pkg" <<'PY'
import json, os, sys
root = sys.argv[1]
missing = [f for f in json.load(open(os.path.join(root, "package.json")))["files"] if not os.path.exists(os.path.join(root, f))]
if missing:
    sys.exit(f"build-npm: the package lists files that are not there: {missing}")
PY
tarball=$(cd "$out" && npm pack ./citelens --silent)
python3 - "$out/$tarball" "$pkg" <<'PY'
import os, sys
tarball, pkg = sys.argv[1], sys.argv[2]
unpacked = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(pkg) for f in fs)
print(f"npm package: {tarball} {os.path.getsize(tarball) / 1e6:.2f} MB packed, {unpacked / 1e6:.2f} MB unpacked")
PY
