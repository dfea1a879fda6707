#!/usr/bin/env bash
# Installs onnxruntime for citelens-worker's faster CPU runtime (`--runtime ort`): the PyPI wheel,
# whose libonnxruntime the worker loads at run time (nothing is downloaded by the build or the
# worker). Prints the library's path; the worker finds it through ORT_DYLIB_PATH or --ort-library:
#   bash scripts/setup-worker.sh && export ORT_DYLIB_PATH=$(bash scripts/ort-library.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ort-library.sh > /dev/null || python3 -m pip install --quiet "onnxruntime>=1.17"
bash scripts/ort-library.sh
