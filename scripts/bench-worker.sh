#!/usr/bin/env bash
# Issue 15's CPU figures, on this machine, in one run (release builds):
#  1. pairs/s of the same 1,024 pairs through `citelens nli` (one process, model load excluded) and
#     through citelens-worker's /v1/nli from 16 concurrent clients (citelens-load), with p50/p99, on
#     1 and 2 model threads and each further N given; the scaling against 1 thread;
#  2. /v1/verify of a three-sentence cited answer from 16 concurrent clients: p50/p99;
#  3. (issue 45) the runtimes on the same pairs over /v1/nli, all cores: tract and onnxruntime (fp32
#     products, and --ort-int8), for the shipped model and the larger one when it is built
#     (models/citelens-nli-mpnet, training/mpnet.py), with the `ort / tract` ratios. onnxruntime comes
#     from $ORT_DYLIB_PATH, else from the PyPI wheel when `python3 -c "import onnxruntime"` finds it;
#     without it this part says so.
#   bash scripts/bench-worker.sh [N ...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p citelens-cli -p citelens-worker
out=target/bench-worker
mkdir -p "$out"
python3 - "$out" <<'PY'
import json, sys
pairs = json.load(open("tests/fixtures/handmade_pairs.json"))
rows = [pairs[i % len(pairs)] for i in range(1024)]
with open(f"{sys.argv[1]}/pairs.jsonl", "w") as f:
    for p, h in rows:
        f.write(json.dumps({"premise": p, "hypothesis": h}) + "\n")
json.dump(rows, open(f"{sys.argv[1]}/pairs.json", "w"))
with open(f"{sys.argv[1]}/one.jsonl", "w") as f:
    f.write(json.dumps({"premise": rows[0][0], "hypothesis": rows[0][1]}) + "\n")
PY
cat > "$out/answer.json" <<'JSON'
{"question": "Tell me about the Eiffel Tower.", "answer": "The Eiffel Tower stands on the Champ de Mars in Paris [1]. It was completed in 1889 [1]. It is 330 metres tall [2].", "citations": [{"id": "1", "text": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. Constructed from 1887 to 1889, it was the centrepiece of the 1889 World's Fair."}, {"id": "2", "text": "The tower is 330 metres tall, about the same height as an 81-storey building, and the tallest structure in Paris."}]}
JSON
echo "bench-key-$(date +%s%N)" > "$out/keys.txt"
now() { date +%s.%N; }
# The CLI: the same pairs, in one process; the model's load time (one pair) is taken off.
t0=$(now); target/release/citelens nli --input "$out/one.jsonl" > /dev/null; t1=$(now)
target/release/citelens nli --input "$out/pairs.jsonl" --chunk 64 > /dev/null; t2=$(now)
python3 -c "
load=$t1-$t0; total=$t2-$t1
print(f'citelens nli: 1024 pairs in {total:.2f} s, {total-load:.2f} s without the model load ({load:.2f} s): {1024/(total-load):.1f} pairs/s')
" | tee "$out/cli.txt"
# The worker: the same pairs over /v1/nli from 16 clients, with 1 model thread, then 2, then each N given.
start_worker() { # $1: model threads, then more flags (default --runtime tract)
  port=$((20000 + RANDOM % 12000)) # below the ephemeral range (32768 and up)
  local threads=$1
  shift
  [ $# -gt 0 ] || set -- --runtime tract
  target/release/citelens-worker --listen 127.0.0.1:$port --keys-file "$out/keys.txt" --backend cpu --threads "$threads" "$@" > "$out/worker-$threads.log" 2>&1 &
  pid=$!
  for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/health/ready" > /dev/null && return 0; sleep 0.1; done
  echo "the worker did not become ready" >&2; exit 1
}
trap 'kill $pid 2>/dev/null || true' EXIT
for threads in 1 2 "$@"; do
  start_worker "$threads"
  echo "worker, $threads model thread(s):"
  target/release/citelens-load --url "http://127.0.0.1:$port" --token-file "$out/keys.txt" --clients 16 --requests 8 --pairs-per-request 8 --pairs "$out/pairs.json" --pid $pid | tee "$out/worker-$threads.txt"
  if [ "$threads" = "$(nproc)" ] || [ "$threads" = 2 ]; then
    target/release/citelens-load --url "http://127.0.0.1:$port" --token-file "$out/keys.txt" --clients 16 --requests 4 --verify "$out/answer.json" --pid $pid
  fi
  kill $pid; wait $pid 2>/dev/null || true
done
python3 - "$out" "$@" <<'PY'
import re, sys
out = sys.argv[1]
rate = lambda f: float(re.search(r'([\d.]+) pairs/s', open(f"{out}/{f}").read()).group(1))
cli = rate("cli.txt")
one = rate("worker-1.txt")
for n in ["2"] + sys.argv[2:]:
    print(f"scaling: {n} threads / 1 thread pairs/s {rate(f'worker-{n}.txt') / one:.2f}x")
best = max(["1", "2"] + sys.argv[2:], key=lambda n: rate(f"worker-{n}.txt"))
print(f"worker ({best} threads) / CLI pairs/s: {rate(f'worker-{best}.txt') / cli:.2f}x")
PY

# 3. The runtimes, on the same pairs, with every core.
ORT_DYLIB_PATH=$(bash scripts/ort-library.sh || true)
if [ -z "$ORT_DYLIB_PATH" ]; then
  echo "runtimes: onnxruntime not found (set ORT_DYLIB_PATH, or pip install onnxruntime): not compared"
  exit 0
fi
export ORT_DYLIB_PATH
cores=$(nproc)
models=(models/citelens-nli-minilm)
[ -f models/citelens-nli-mpnet/config.json ] && models+=(models/citelens-nli-mpnet)
for model in "${models[@]}"; do
  name=$(basename "$model")
  for rt in tract ort ort-int8; do
    case $rt in
      tract) flags=(--runtime tract) ;;
      ort) flags=(--runtime ort) ;;
      ort-int8) flags=(--runtime ort --ort-int8) ;;
    esac
    start_worker "$cores" --model "$model" "${flags[@]}"
    grep -q "$(echo "$rt" | cut -d- -f1)," "$out/worker-$cores.log" || { echo "the worker did not start on $rt:" >&2; cat "$out/worker-$cores.log" >&2; exit 1; }
    target/release/citelens-load --url "http://127.0.0.1:$port" --token-file "$out/keys.txt" --clients 16 --requests 8 --pairs-per-request 8 --pairs "$out/pairs.json" --pid $pid > "$out/runtime-$name-$rt.txt"
    echo "$name $rt ($cores model threads): $(grep -o '[0-9.]* pairs/s' "$out/runtime-$name-$rt.txt" | head -1)"
    kill $pid; wait $pid 2>/dev/null || true
  done
done
python3 - "$out" "${models[@]}" <<'PY'
import os, re, sys
out = sys.argv[1]
rate = lambda f: float(re.search(r'([\d.]+) pairs/s', open(f"{out}/{f}").read()).group(1))
for model in sys.argv[2:]:
    name = os.path.basename(model)
    tract = rate(f"runtime-{name}-tract.txt")
    for rt in ["ort", "ort-int8"]:
        print(f"{name}: {rt} / tract pairs/s {rate(f'runtime-{name}-{rt}.txt') / tract:.2f}x")
PY
