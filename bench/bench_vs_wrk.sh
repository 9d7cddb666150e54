#!/usr/bin/env bash
# Two measurements of gpuport bench's own ceiling, against gpuport's mock server on loopback:
#  1. wrk vs gpuport bench (non-streaming, generic JSON POST, the same connection count, one
#     core each for server and client) against the mock in its trivial mode (answers at once):
#     both request rates and the ratio gpuport/wrk (target >= 0.9).
#  2. >= 10,000 concurrent streaming requests (/v1/completions, SSE) against the mock on the 2
#     cores: the client's schedule lag (p50/p99/max), peak concurrency, errors.
#
# Usage: bench/bench_vs_wrk.sh [options] [GPUPORT]
#   GPUPORT              the gpuport binary (default: build/gpuport under the repository root)
#   --connections N      connections for part 1 (default 64)
#   --duration S         seconds per part-1 run (default 10)
#   --runs N             part-1 runs per tool, interleaved, median taken (default 3)
#   --streams N          concurrent streams for part 2 (default 10000)
#   --stream-duration S  seconds of part 2 (default 30)
#   --stream-ttft D      the mock's TTFT in part 2 (default normal:1s,200ms; jitter keeps the
#                        10,000 streams from falling due in the same instant)
#   --stream-itl D       the mock's ITL in part 2 (default normal:200ms,40ms)
#   --stream-tokens N    output tokens per stream in part 2 (default 16)
#   --only-wrk | --only-streams   run one part
# Needs: bash, python3, wrk (Debian package `wrk`); taskset (util-linux) to pin processes.
# Environment: GPUPORT_BENCH_FLAGS appends flags to every `gpuport bench` run.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

connections=64
duration=10
runs=3
streams=10000
stream_duration=30
stream_ttft="normal:1s,200ms"
stream_itl="normal:200ms,40ms"
stream_tokens=16
part1=1
part2=1
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --connections) connections="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --streams) streams="$2"; shift 2 ;;
    --stream-duration) stream_duration="$2"; shift 2 ;;
    --stream-ttft) stream_ttft="$2"; shift 2 ;;
    --stream-itl) stream_itl="$2"; shift 2 ;;
    --stream-tokens) stream_tokens="$2"; shift 2 ;;
    --only-wrk) part2=0; shift ;;
    --only-streams) part1=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench_vs_wrk: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
gpuport="${positional[0]:-${repo_root}/build/gpuport}"
for value in "${connections}" "${duration}" "${runs}" "${streams}" "${stream_duration}" "${stream_tokens}"; do
  [[ "${value}" =~ ^[1-9][0-9]*$ ]] || { echo "bench_vs_wrk: '${value}' is not a positive integer" >&2; exit 2; }
done

die() { echo "bench_vs_wrk: $*" >&2; exit 1; }

[[ -x "${gpuport}" ]] || die "gpuport binary not found at ${gpuport}; build it first (cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build) or pass its path"
"${gpuport}" bench --help >/dev/null 2>&1 || die "${gpuport} has no 'bench' command"
command -v python3 >/dev/null || die "python3 not found; install it with: apt-get install -y python3"
if [[ "${part1}" -eq 1 ]]; then
  command -v wrk >/dev/null || die "wrk not found; install it with: apt-get install -y wrk"
fi

# 10,000 streams need 10,000 descriptors in each process.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [[ "$(ulimit -n)" != unlimited && "$(ulimit -n)" -lt $((streams + 1000)) ]]; then
  echo "bench_vs_wrk: note: open-file limit $(ulimit -n) is below ${streams} streams + 1000" >&2
fi

# Pinning: the server on CPU 0 and the client on CPU 1 in part 1; both on CPUs 0-1 in part 2.
have_taskset=0
if command -v taskset >/dev/null && [[ "$(nproc)" -ge 2 ]]; then
  have_taskset=1
else
  echo "bench_vs_wrk: note: no taskset or fewer than 2 CPUs; processes are not pinned" >&2
fi
pin() {  # pin CPUS COMMAND...
  local cpus="$1"; shift
  if [[ "${have_taskset}" -eq 1 ]]; then taskset -c "${cpus}" "$@"; else "$@"; fi
}
pin_prefix() {  # pin_prefix CPUS: sets the array `prefix` to the pinning words, for a command run with &
  prefix=()
  if [[ "${have_taskset}" -eq 1 ]]; then prefix=(taskset -c "$1"); fi
}

work="$(mktemp -d)"
mock_pid=""
cleanup() {
  if [[ -n "${mock_pid}" ]]; then kill -TERM "${mock_pid}" 2>/dev/null || true; wait "${mock_pid}" 2>/dev/null || true; fi
  rm -rf "${work}"
}
trap cleanup EXIT

# start_mock CPUS FLAGS...: starts the mock on an ephemeral port; sets mock_pid and mock_port.
start_mock() {
  pin_prefix "$1"; shift
  # A simple command, so $! is the server's own pid (taskset execs it). SIGTERM stops it: a
  # background job of a script ignores SIGINT.
  "${prefix[@]}" "${gpuport}" bench --serve-mock --port 0 "$@" >"${work}/mock.out" 2>"${work}/mock.err" &
  mock_pid=$!
  for _ in $(seq 1 200); do
    mock_port="$(sed -n 's|^gpuport mock: listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "${work}/mock.out")"
    [[ -n "${mock_port}" ]] && return 0
    kill -0 "${mock_pid}" 2>/dev/null || break
    sleep 0.05
  done
  cat "${work}/mock.err" >&2
  die "the mock server did not start"
}
stop_mock() {
  kill -TERM "${mock_pid}" 2>/dev/null || true
  wait "${mock_pid}" 2>/dev/null || true
  mock_pid=""
  mock_summary="$(tail -n 1 "${work}/mock.err")"
}

# json_get FILE KEY...: prints the values of top-level keys, one per line.
json_get() {
  python3 - "$@" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    result = json.load(f)
for key in sys.argv[2:]:
    value = result.get(key)
    print(json.dumps(value) if isinstance(value, (dict, list)) else value)
PY
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

cpu_model="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
machine="$(nproc) CPUs, ${cpu_model:-unknown CPU}"
today="$(date -u +%Y-%m-%d)"
echo "machine: ${machine}"
echo "gpuport: ${gpuport} ($("${gpuport}" --version 2>/dev/null | sed -n 1p))"
echo

if [[ "${part1}" -eq 1 ]]; then
  # The same request from both tools: a KServe-style JSON POST of about 150 bytes.
  prompt="alpha beta gamma delta epsilon zeta eta theta"
  printf '{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["{prompt}"]}]}' >"${work}/body.json"
  wrk_body="$(sed "s/{prompt}/${prompt}/" "${work}/body.json")"
  cat >"${work}/post.lua" <<EOF
wrk.method = "POST"
wrk.body = '${wrk_body}'
wrk.headers["Content-Type"] = "application/json"
EOF
  start_mock 0 --ttft 0 --itl 0 --threads 1
  url="http://127.0.0.1:${mock_port}/v2/models/mock/infer"
  echo "part 1: ${url}, ${connections} connections, ${duration}s per run, ${runs} runs each, interleaved"
  echo "        server pinned to CPU 0, each client to CPU 1 (one thread / one event loop)"
  : >"${work}/wrk.rates"
  : >"${work}/gpuport.rates"
  for ((i = 1; i <= runs; i++)); do
    pin 1 wrk -t 1 -c "${connections}" -d "${duration}s" -s "${work}/post.lua" "${url}" >"${work}/wrk.txt" 2>&1 ||
      { cat "${work}/wrk.txt" >&2; die "wrk failed"; }
    if grep -q "Non-2xx" "${work}/wrk.txt"; then cat "${work}/wrk.txt" >&2; die "wrk saw non-2xx answers"; fi
    wrk_rate="$(awk '/^Requests\/sec:/ { print $2 }' "${work}/wrk.txt")"
    echo "${wrk_rate}" >>"${work}/wrk.rates"

    # shellcheck disable=SC2086
    pin 1 "${gpuport}" bench "${url}" --api generic --body-template "${work}/body.json" --model mock-model \
      --input-tokens 8 --no-stream --concurrency "${connections}" --duration "${duration}s" \
      --quiet -o "${work}/gpuport.json" ${GPUPORT_BENCH_FLAGS:-} >"${work}/gpuport.txt" 2>&1 ||
      { cat "${work}/gpuport.txt" >&2; die "gpuport bench failed"; }
    read -r gp_rate gp_failed < <(json_get "${work}/gpuport.json" request_throughput failed | paste -sd' ')
    [[ "${gp_failed}" == 0 ]] || die "gpuport bench counted ${gp_failed} failed requests: $(json_get "${work}/gpuport.json" errors)"
    echo "${gp_rate}" >>"${work}/gpuport.rates"
    printf '  run %d: wrk %.0f req/s, gpuport %.0f req/s\n' "${i}" "${wrk_rate}" "${gp_rate}"
  done
  stop_mock
  wrk_median="$(median <"${work}/wrk.rates")"
  gp_median="$(median <"${work}/gpuport.rates")"
  ratio="$(awk -v g="${gp_median}" -v w="${wrk_median}" 'BEGIN { printf "%.2f", g / w }')"
  verdict="$(awk -v r="${ratio}" 'BEGIN { print (r >= 0.9) ? "meets" : "MISSES" }')"
  echo "  mock: ${mock_summary#gpuport mock: }"
  echo
  echo "| date | machine | connections | run | wrk req/s | gpuport req/s | gpuport/wrk |"
  echo "|---|---|---|---|---|---|---|"
  printf '| %s | %s | %s | median of %s × %ss | %.0f | %.0f | %s |\n' "${today}" "${machine}" \
    "${connections}" "${runs}" "${duration}" "${wrk_median}" "${gp_median}" "${ratio}"
  echo
  echo "target: gpuport >= 0.9x wrk's request rate: ${ratio}x, ${verdict}"
  echo
fi

if [[ "${part2}" -eq 1 ]]; then
  start_mock 0-1 --ttft "${stream_ttft}" --itl "${stream_itl}" --output-tokens "${stream_tokens}" --threads 1
  url="http://127.0.0.1:${mock_port}"
  echo "part 2: ${streams} concurrent streams against ${url}/v1/completions for ${stream_duration}s"
  echo "        mock: TTFT ${stream_ttft}, ITL ${stream_itl}, ${stream_tokens} tokens; mock and client share CPUs 0-1"
  # shellcheck disable=SC2086
  pin 0-1 "${gpuport}" bench "${url}" --api completions --model mock-model --input-tokens 32 \
    --output-tokens "${stream_tokens}" --concurrency "${streams}" --duration "${stream_duration}s" \
    --timeout 120s --quiet -o "${work}/streams.json" ${GPUPORT_BENCH_FLAGS:-} >"${work}/streams.txt" 2>&1 ||
    { cat "${work}/streams.txt" >&2; die "gpuport bench (streams) failed"; }
  stop_mock
  read -r completed failed rate peak lag50 lag99 lagmax ttft50 ttft99 itl50 itl99 errors < <(
    json_get "${work}/streams.json" completed failed request_throughput max_concurrent_requests \
      p50_schedule_lag_ms p99_schedule_lag_ms max_schedule_lag_ms p50_ttft_ms p99_ttft_ms \
      p50_itl_ms p99_itl_ms errors | paste -sd' ')
  echo "  mock: ${mock_summary#gpuport mock: }"
  echo
  echo "| date | machine | streams | peak concurrent | completed | failed | req/s | schedule lag p50 / p99 / max ms | TTFT p50 / p99 ms (mock ${stream_ttft}) | ITL p50 / p99 ms (mock ${stream_itl}) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf '| %s | %s | %s | %s | %s | %s | %.0f | %.2f / %.2f / %.2f | %.1f / %.1f | %.1f / %.1f |\n' \
    "${today}" "${machine}" "${streams}" "${peak}" "${completed}" "${failed}" "${rate}" \
    "${lag50}" "${lag99}" "${lagmax}" "${ttft50}" "${ttft99}" "${itl50}" "${itl99}"
  if [[ "${failed}" != 0 ]]; then echo "errors: ${errors}"; fi
  peak_ok="$(awk -v p="${peak}" -v s="${streams}" 'BEGIN { print (p >= s) ? "meets" : "MISSES" }')"
  echo
  echo "target: >= ${streams} concurrent streams: peak ${peak}, ${peak_ok}"
fi
