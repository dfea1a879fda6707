#!/usr/bin/env bash
# All of citelens' tests: native unit/integration tests against the shipped model, the wasm32 build,
# and the training code's own checks. Installs what it needs, skipping what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/data ] && [ -z "${CITELENS_DATA_DIR:-}" ]; then
  echo "test.sh: ../shared/data not found (set CITELENS_DATA_DIR)" >&2
  exit 2
fi
if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  rustup target add wasm32-unknown-unknown
fi

echo "== cargo test (native)"
cargo test --workspace 2>&1

echo "== wasm32 build (citelens-nli through its JS bindings)"
cargo build --release --target wasm32-unknown-unknown -p citelens-wasm 2>&1
ls -l target/wasm32-unknown-unknown/release/citelens_wasm.wasm

echo "== training code checks (python, stdlib only)"
python3 -m unittest discover -s training/tests -v 2>&1
