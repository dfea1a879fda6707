#!/usr/bin/env bash
# All of citelens' tests: native unit/integration tests against the shipped model, the training code's
# own checks, the wasm32 builds (through Trunk), and the demo in headless Chromium. Installs what it needs, skipping what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/data ] && [ -z "${CITELENS_DATA_DIR:-}" ]; then
  echo "test.sh: ../shared/data not found (set CITELENS_DATA_DIR)" >&2
  exit 2
fi
source scripts/setup-web.sh
# What the build holds on disk, printed after each big step: CI's disk is finite (one run failed with
# "No space left on device" when every test binary carried full debug info).
disk() { echo "   disk: target/ $(du -sh target 2>/dev/null | cut -f1), $(df -h --output=avail . | tail -1 | tr -d ' ') free"; }

echo "== cargo fmt --check (rustfmt.toml)"
cargo fmt --all --check
echo "== cargo clippy (native targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings
# The widget's code is compiled only for wasm32 (its native build is a stub), so it is linted there.
echo "== cargo clippy (wasm32: the widget and the engine's wasm binding)"
cargo clippy --target wasm32-unknown-unknown -p citelens-web -p citelens-wasm -- -D warnings

echo "== cargo test (native)"
cargo test --workspace 2>&1
disk

# The onnxruntime runtime against tract (issue 45), when the PyPI wheel is installed
# (scripts/setup-worker.sh). Without ORT_DYLIB_PATH in the environment the run above tested the
# tract path alone, as a machine without the wheel does.
if ort_library=$(bash scripts/ort-library.sh); then
  echo "== onnxruntime against tract ($ort_library)"
  ORT_DYLIB_PATH="$ort_library" CITELENS_REQUIRE_ORT=1 cargo test -p citelens-nli --features ort --test ort_runtime 2>&1
else
  echo "== onnxruntime: not installed (bash scripts/setup-worker.sh installs it); its tests were skipped"
fi

echo "== citelens-worker under load: two replicas behind nginx, deliberate 429s, flat memory"
bash scripts/test-worker-load.sh 2>&1

echo "== training code checks (python, stdlib only)"
python3 -m unittest discover -s training/tests -v 2>&1

# The wasm32 builds: the Yew app (Trunk) and, in Trunk's post-build hook (scripts/stage-engine.sh),
# the engine with the model runtime (citelens-wasm).
echo "== demo build (trunk build --release: the Yew app, the engine worker, the model)"
trunk build --release 2>&1
test -f dist/index.html && test -f dist/citelens/pkg/citelens_wasm_bg.wasm
disk

echo "== npm package (scripts/build-npm.sh: target/npm/citelens-VERSION.tgz, installed and used by tests/browser/npm-package.test.mjs)"
bash scripts/build-npm.sh 2>&1

echo "== browser tests (headless Chromium, Playwright): screenshots in target/browser-artifacts/"
test -x target/debug/citelens   # the native engine, for comparing reports (built by cargo test for the CLI tests)
node --test --test-concurrency=1 tests/browser/ 2>&1

echo "== browser extension (scripts/build-extension.sh; headless Chromium with the unpacked extension)"
bash scripts/build-extension.sh 2>&1
node --test --test-concurrency=1 tests/extension/ 2>&1

echo "== citelens-worker's cuda feature: builds without a GPU, falls back to the CPU with one line"
bash scripts/test-worker-cuda.sh 2>&1
disk
