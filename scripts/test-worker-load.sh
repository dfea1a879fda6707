#!/usr/bin/env bash
# citelens-worker under load, on 127.0.0.1 (part of scripts/test.sh; also by hand):
#  1. two replicas behind Debian's nginx (deploy/nginx/citelens-worker.conf, ports rewritten), a bounded
#     load through it: no errors, both replicas answer;
#  2. one replica with a small queue, a load bigger than it: deliberate 429s, no other error, and flat
#     memory over repeated rounds.
# Uses the binaries `cargo test --workspace` builds (target/debug), or $WORKER_BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${WORKER_BIN_DIR:-target/debug}"
[ -x "$bin/citelens-worker" ] && [ -x "$bin/citelens-load" ] || cargo build -q -p citelens-worker
command -v nginx >/dev/null || { echo "test-worker-load: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }
# Memory may grow this much (percent) from the end of the first round to the end of the last.
MAX_MEMORY_GROWTH_PERCENT=10
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
echo "load-test-key-$(date +%s%N)" > "$work/keys.txt"
python3 -c "
import json; p=json.load(open('tests/fixtures/handmade_pairs.json')); json.dump(p, open('$work/pairs.json','w'))"
# Below the system's ephemeral range (32768 and up), so no outgoing connection holds these ports.
base=$((20000 + RANDOM % 12000))
wait_ready() { for _ in $(seq 300); do curl -sf "http://127.0.0.1:$1/health/ready" >/dev/null && return 0; sleep 0.1; done; echo "port $1 never became ready" >&2; return 1; }
metric() { curl -sf -H "Authorization: Bearer $(cat "$work/keys.txt")" "http://127.0.0.1:$1/metrics" | awk -v m="$2" '$1==m {print $2}'; }

echo "== two replicas behind nginx"
for i in 1 2; do
  "$bin/citelens-worker" --listen 127.0.0.1:$((base + i)) --keys-file "$work/keys.txt" --backend cpu 2>>"$work/replica$i.log" &
  pids+=($!)
done
sed -e "s/127.0.0.1:8701/127.0.0.1:$((base + 1))/; s/127.0.0.1:8702/127.0.0.1:$((base + 2))/; s/127.0.0.1:8700/127.0.0.1:$base/" deploy/nginx/citelens-worker.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fcgi; uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  include $work/site.conf;
}
NGINX
wait_ready $((base + 1)); wait_ready $((base + 2))
nginx -p "$work" -c "$work/nginx.conf"
wait_ready $base
"$bin/citelens-load" --url "http://127.0.0.1:$base" --token-file "$work/keys.txt" --clients 8 --requests 6 --pairs-per-request 4 --pairs "$work/pairs.json" | tee "$work/through-nginx.txt"
grep -q " 48 ok, 0 busy (429), 0 errors" "$work/through-nginx.txt" || { echo "test-worker-load: expected 48 answers through nginx" >&2; exit 1; }
r1=$(metric $((base + 1)) 'citelens_worker_http_requests_total{route="/v1/nli",status="200"}')
r2=$(metric $((base + 2)) 'citelens_worker_http_requests_total{route="/v1/nli",status="200"}')
echo "replica 1 answered ${r1:-0}, replica 2 answered ${r2:-0}"
[ "${r1:-0}" -gt 0 ] && [ "${r2:-0}" -gt 0 ] && [ $(( ${r1:-0} + ${r2:-0} )) -eq 48 ] || { echo "test-worker-load: both replicas must share the 48 requests" >&2; exit 1; }

echo "== one replica, a queue of 24 pairs, 16 clients: deliberate 429s, flat memory"
"$bin/citelens-worker" --listen 127.0.0.1:$((base + 3)) --keys-file "$work/keys.txt" --backend cpu --queue-pairs 24 2>>"$work/replica3.log" &
pid=$!; pids+=($pid)
wait_ready $((base + 3))
"$bin/citelens-load" --url "http://127.0.0.1:$((base + 3))" --token-file "$work/keys.txt" --clients 16 --requests 4 --pairs-per-request 8 --pairs "$work/pairs.json" --pid $pid --rounds 4 | tee "$work/busy.txt"
python3 - "$work/busy.txt" "$MAX_MEMORY_GROWTH_PERCENT" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rounds = re.findall(r"(\d+) ok, (\d+) busy \(429\), (\d+) errors", text)
mem = [int(m) for m in re.findall(r"worker memory after round \d+: (\d+) KiB", text)]
assert len(rounds) == 4 and len(mem) == 4, text
assert all(int(e) == 0 for _, _, e in rounds), "errors other than 429"
assert sum(int(b) for _, b, _ in rounds) > 0, "the load was meant to overflow the queue"
assert all(int(ok) > 0 for ok, _, _ in rounds), "some requests must get through"
growth = 100.0 * (mem[-1] - mem[0]) / mem[0]
print(f"memory after rounds 1..4: {mem} KiB; growth from round 1 to 4: {growth:.1f} % (limit {sys.argv[2]} %)")
assert growth <= float(sys.argv[2]), "memory grows with repeated load"
PY
echo "test-worker-load: ok"
