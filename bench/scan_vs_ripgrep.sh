#!/usr/bin/env bash
# Times `gpuport scan` against ripgrep's 15-pattern ASCII search on the same corpus, at 2 and 1 jobs.
#
# Usage: bench/scan_vs_ripgrep.sh [--runs N] [--mb MB] [--rg-only] [GPUPORT [CORPUS]]
#   GPUPORT  the gpuport binary (default: build/gpuport under the repository root)
#   CORPUS   the corpus directory (default: bench/corpus); generated with make_corpus.py if missing
#   --runs N timed runs per tool and job count, after one warm-up run each (default 5; median taken)
#   --mb MB  size of a corpus generated here (default 220)
#   --rg-only  time ripgrep alone (to check the script and the corpus without a gpuport binary)
#   --format F gpuport's report format: text (default: the portability table and inventory summary
#              a user reads; ripgrep's side prints match counts, so this is the like-for-like run)
#              or json (the whole inventory, every finding with its source line: ~half the corpus
#              size written; timed for information, the 1.5x target is judged on text)
# Environment: GPUPORT_FLAGS appends flags to the gpuport command; BENCH_NO_GNU_TIME=1 forces the
# /proc polling fallback for peak RSS.
# Needs: bash, python3, ripgrep (rg), GNU time (/usr/bin/time, Debian package `time`; optional).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

runs=5
corpus_mb=220
rg_only=0
report_format=text
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --mb) corpus_mb="$2"; shift 2 ;;
    --rg-only) rg_only=1; shift ;;
    --format) report_format="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scan_vs_ripgrep: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
gpuport="${positional[0]:-${repo_root}/build/gpuport}"
corpus="${positional[1]:-${repo_root}/bench/corpus}"
if [[ "${report_format}" != json && "${report_format}" != text ]]; then
  echo "scan_vs_ripgrep: --format must be json or text" >&2
  exit 2
fi
if ! [[ "${runs}" =~ ^[1-9][0-9]*$ ]]; then
  echo "scan_vs_ripgrep: --runs needs a positive integer" >&2
  exit 2
fi

die() { echo "scan_vs_ripgrep: $*" >&2; exit 1; }

command -v rg >/dev/null || die "ripgrep not found; install it with: apt-get install -y ripgrep"
command -v python3 >/dev/null || die "python3 not found; install it with: apt-get install -y python3"
if [[ "${rg_only}" -eq 0 ]]; then
  [[ -e "${gpuport}" ]] || die "gpuport binary not found at ${gpuport}; build it first (cmake -S . -B build -G Ninja && cmake --build build) or pass its path as the first argument"
  [[ -x "${gpuport}" ]] || die "${gpuport} is not executable"
fi
have_gnu_time=0
if [[ -z "${BENCH_NO_GNU_TIME:-}" && -x /usr/bin/time ]] && /usr/bin/time -q -f '%M' -o /dev/null true 2>/dev/null; then
  have_gnu_time=1
else
  echo "scan_vs_ripgrep: GNU time not found (install it with: apt-get install -y time);" \
       "peak RSS comes from polling /proc in one extra run per tool (a lower bound)" >&2
fi

if [[ ! -d "${corpus}" ]]; then
  echo "scan_vs_ripgrep: generating a ${corpus_mb} MB corpus in ${corpus}" >&2
  python3 "${script_dir}/make_corpus.py" "${corpus}" --mb "${corpus_mb}" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=bench/rg_patterns.sh
source "${script_dir}/rg_patterns.sh"  # sets rg_patterns

# set_argv TOOL JOBS: puts the command line of one run into the array `argv`.
set_argv() {
  if [[ "$1" == rg ]]; then
    argv=(rg --no-ignore --hidden -c -j "$2" "${rg_patterns[@]}" "${corpus}")
  else
    # -o goes to a scratch file: gpuport writes atomically (temp file + rename), so /dev/null is unsafe.
    # shellcheck disable=SC2206
    argv=("${gpuport}" scan "${corpus}" --format "${report_format}" -o "${work}/scan.json" --jobs "$2" --quiet
          ${GPUPORT_FLAGS:-})
  fi
}

now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }

# run_once TOOL JOBS: runs one command, sets g_secs and g_rss_kb (0 when not measured).
run_once() {
  local tool="$1" jobs="$2" start end rc=0
  local out="${work}/${tool}.out" err="${work}/${tool}.err"
  set_argv "${tool}" "${jobs}"
  start="$(now)"
  if [[ "${have_gnu_time}" -eq 1 ]]; then
    /usr/bin/time -q -f '%M' -o "${work}/rss" "${argv[@]}" >"${out}" 2>"${err}" || rc=$?
  else
    "${argv[@]}" >"${out}" 2>"${err}" || rc=$?
  fi
  end="$(now)"
  check_rc "${tool}" "${rc}"
  g_secs="$(awk -v a="${start}" -v b="${end}" 'BEGIN { printf "%.4f", b - a }')"
  g_rss_kb=0
  if [[ "${have_gnu_time}" -eq 1 ]]; then g_rss_kb="$(tail -n 1 "${work}/rss")"; fi
}

check_rc() {
  local tool="$1" rc="$2"
  # rg: 0 = matches, 1 = no match; gpuport: 0 = ok (no --fail-on given, so 1 is unexpected).
  if [[ "${tool}" == rg && "${rc}" -le 1 ]] || [[ "${tool}" == gpuport && "${rc}" -eq 0 ]]; then
    return 0
  fi
  echo "scan_vs_ripgrep: ${tool} failed with exit status ${rc}; its stderr:" >&2
  sed -n '1,20p' "${work}/${tool}.err" >&2
  exit 1
}

# poll_rss TOOL JOBS: one extra, untimed run; peak RSS (VmHWM) polled from /proc, in KiB.
poll_rss() {
  local tool="$1" jobs="$2" pid hwm=0 v rc=0
  set_argv "${tool}" "${jobs}"
  "${argv[@]}" >"${work}/${tool}.out" 2>"${work}/${tool}.err" &
  pid=$!
  while kill -0 "${pid}" 2>/dev/null; do
    v="$(awk '/^VmHWM:/ { print $2 }' "/proc/${pid}/status" 2>/dev/null || true)"
    if [[ -n "${v}" && "${v}" -gt "${hwm}" ]]; then hwm="${v}"; fi
    sleep 0.01
  done
  wait "${pid}" || rc=$?
  check_rc "${tool}" "${rc}"
  echo "${hwm}"
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Bytes and files as ripgrep counts them (binary files, if any, are skipped by both tools).
stats="$(rg --no-ignore --hidden --stats -c -j 2 "${rg_patterns[@]}" "${corpus}" | tail -n 12)"
bytes="$(awk '/bytes searched/ { print $1 }' <<<"${stats}")"
files="$(awk '/files searched/ { print $1 }' <<<"${stats}")"
tree_bytes="$(find "${corpus}" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
[[ -n "${bytes}" && "${bytes}" -gt 0 ]] || die "ripgrep searched no bytes in ${corpus}"

cpu_model="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
machine="$(nproc) CPUs, ${cpu_model:-unknown CPU}"
rg_version="$(rg --version | sed -n 1p)"
gp_version="n/a"
if [[ "${rg_only}" -eq 0 ]]; then
  gp_version="$("${gpuport}" --version 2>/dev/null | sed -n 1p || true)"
fi

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
rate() { awk -v b="${bytes}" -v s="$1" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else print "-" }'; }
rss_mb() { awk -v k="$1" 'BEGIN { if (k > 0) printf "%.0f", k / 1024; else print "-" }'; }

echo "corpus:  ${corpus}"
echo "         ${files} files, ${bytes} bytes searched by rg ($(mb "${bytes}") MB; tree holds $(mb "${tree_bytes}") MB)"
echo "machine: ${machine}"
echo "rg:      ${rg_version}"
echo "gpuport: ${gpuport} (${gp_version:-unknown version}), --format ${report_format}"
echo "method:  one warm-up run each, then the median of ${runs} timed runs (wall clock), runs interleaved"
echo

tools=(rg)
[[ "${rg_only}" -eq 0 ]] && tools=(gpuport rg)

declare -A result_secs result_rss
for jobs in 2 1; do
  for tool in "${tools[@]}"; do
    run_once "${tool}" "${jobs}"  # warm-up (page cache, binary)
    if [[ "${tool}" == gpuport ]]; then
      [[ -s "${work}/scan.json" ]] || die "gpuport wrote no report to ${work}/scan.json"
      if [[ "${report_format}" == json ]]; then
        head -c 1 "${work}/scan.json" | grep -q '{' || die "gpuport output does not look like JSON"
      fi
    fi
    : >"${work}/${tool}.times.${jobs}"
    echo 0 >"${work}/${tool}.rss.${jobs}"
  done
  for ((i = 1; i <= runs; i++)); do
    for tool in "${tools[@]}"; do
      run_once "${tool}" "${jobs}"
      echo "${g_secs}" >>"${work}/${tool}.times.${jobs}"
      prev="$(cat "${work}/${tool}.rss.${jobs}")"
      if [[ "${g_rss_kb}" -gt "${prev}" ]]; then echo "${g_rss_kb}" >"${work}/${tool}.rss.${jobs}"; fi
    done
  done
  for tool in "${tools[@]}"; do
    result_secs["${tool}.${jobs}"]="$(median <"${work}/${tool}.times.${jobs}")"
    if [[ "${have_gnu_time}" -eq 1 ]]; then
      result_rss["${tool}.${jobs}"]="$(cat "${work}/${tool}.rss.${jobs}")"
    else
      result_rss["${tool}.${jobs}"]="$(poll_rss "${tool}" "${jobs}")"
    fi
    printf '%-8s -j%s  runs: %s\n' "${tool}" "${jobs}" "$(tr '\n' ' ' <"${work}/${tool}.times.${jobs}")"
  done
done
echo

today="$(date -u +%Y-%m-%d)"
corpus_desc="$(basename "${corpus}"), ${files} files, $(mb "${bytes}") MB"
echo "| date | machine | corpus | jobs | gpuport s | gpuport MB/s | rg s | rg MB/s | gpuport/rg | gpuport peak RSS MB | rg peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for jobs in 2 1; do
  rg_s="${result_secs[rg.${jobs}]}"
  if [[ "${rg_only}" -eq 0 ]]; then
    gp_s="${result_secs[gpuport.${jobs}]}"
    ratio="$(awk -v a="${gp_s}" -v b="${rg_s}" 'BEGIN { printf "%.2f", a / b }')"
    gp_rate="$(rate "${gp_s}")"
    gp_rss="$(rss_mb "${result_rss[gpuport.${jobs}]}")"
  else
    gp_s="-"; ratio="-"; gp_rate="-"; gp_rss="-"
  fi
  echo "| ${today} | ${machine} | ${corpus_desc} | ${jobs} | ${gp_s} | ${gp_rate} | ${rg_s} | $(rate "${rg_s}") | ${ratio} | ${gp_rss} | $(rss_mb "${result_rss[rg.${jobs}]}") |"
done

if [[ "${rg_only}" -eq 0 ]]; then
  echo
  ratio2="$(awk -v a="${result_secs[gpuport.2]}" -v b="${result_secs[rg.2]}" 'BEGIN { printf "%.2f", a / b }')"
  rss2="$(rss_mb "${result_rss[gpuport.2]}")"
  rss1="$(rss_mb "${result_rss[gpuport.1]}")"
  verdict() { if [[ "$1" == 1 ]]; then echo "meets"; else echo "MISSES"; fi; }
  if [[ "${report_format}" == text ]]; then
    echo "target: wall time <= 1.5x rg at -j2: ${ratio2}x, $(verdict "$(awk -v r="${ratio2}" 'BEGIN { print (r <= 1.5) }')")"
  else
    echo "wall time at -j2 with the JSON report: ${ratio2}x rg (the 1.5x target is judged on --format text)"
  fi
  peak="$(awk -v a="${rss2}" -v b="${rss1}" 'BEGIN { print (a > b) ? a : b }')"
  echo "target: peak RSS <= 256 MB: ${peak} MB, $(verdict "$(awk -v p="${peak}" 'BEGIN { print (p <= 256) }')")"
fi
