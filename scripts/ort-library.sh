#!/usr/bin/env bash
# Prints the path of libonnxruntime: $ORT_DYLIB_PATH when set, else the one inside the PyPI
# `onnxruntime` wheel when python3 can import it; prints nothing (and exits 1) when there is none.
#   export ORT_DYLIB_PATH=$(bash scripts/ort-library.sh)
set -euo pipefail
if [ -n "${ORT_DYLIB_PATH:-}" ]; then
  echo "$ORT_DYLIB_PATH"
  exit 0
fi
python3 - <<'PY' 2>/dev/null
import glob, os, sys
try:
    import onnxruntime
except ImportError:
    sys.exit(1)
found = sorted(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), "capi", "libonnxruntime.so*")))
if not found:
    sys.exit(1)
print(found[0])
PY
