#!/usr/bin/env bash
# How late the mock server and the bench client deliver on this machine, now: the wall-clock
# accuracy that the unit tests no longer assert (they check the mock's planned schedule exactly
# and the wire only from below; see tests/bench/mock_timing_test.cpp). Starts
# `gpuport bench --serve-mock` with a constant TTFT and ITL, runs `gpuport bench` against it at
# a few concurrencies, and prints configured against measured p50/p99 and the lateness.
#
#   bench/mock_timing_accuracy.sh [GPUPORT]        default: build/gpuport
set -euo pipefail
gpuport=${1:-build/gpuport}
ttft_ms=40
itl_ms=10
tokens=6
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
"$gpuport" bench --serve-mock --port "$port" --ttft "${ttft_ms}ms" --itl "${itl_ms}ms" \
  --output-tokens "$tokens" >"$work/mock.log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 || \
     (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    break
  fi
  sleep 0.1
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "configured: TTFT ${ttft_ms} ms, ITL ${itl_ms} ms, E2EL $((ttft_ms + (tokens - 1) * itl_ms)) ms"
printf '%-12s %-6s %10s %10s %12s\n' concurrency series p50_ms p99_ms "p99 late ms"
for concurrency in 1 8 64; do
  "$gpuport" bench "http://127.0.0.1:$port" --requests $((concurrency * 20)) -c "$concurrency" \
    --output-tokens "$tokens" --format json -q -o "$work/r$concurrency.json" >/dev/null
  python3 - "$work/r$concurrency.json" "$concurrency" "$ttft_ms" "$itl_ms" "$tokens" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
concurrency, ttft, itl, tokens = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
for series, configured in (("ttft", ttft), ("itl", itl), ("e2el", ttft + (tokens - 1) * itl)):
    p50, p99 = result[f"p50_{series}_ms"], result[f"p99_{series}_ms"]
    print(f"{concurrency:<12} {series:<6} {p50:10.2f} {p99:10.2f} {p99 - configured:12.2f}")
PY
done
