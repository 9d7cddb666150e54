#!/usr/bin/env bash
# Where a scan's time goes: times each stage of `gpuport scan` (scan_phases_bench: read, lex,
# analyze with results dropped, the library's scan() with results kept and merged), the CLI's
# `gpuport scan --format text` and ripgrep's 15-pattern search, in turn, round after round on the
# same corpus, and prints the median wall time of each and its ratio to ripgrep's.
#
# Usage: bench/scan_phases.sh [--runs N] [--jobs J] PHASES_BENCH GPUPORT [CORPUS]
#   PHASES_BENCH  the scan_phases_bench binary (configure with -DGPUPORT_BUILD_BENCH=ON)
#   GPUPORT       the gpuport binary
#   CORPUS        the corpus directory (default: bench/corpus; make it with make_corpus.py)
#   --runs N      rounds after one warm-up round (default 7)
#   --jobs J      worker threads for every tool (default 2)
# Needs: bash, ripgrep (rg); the patterns come from bench/rg_patterns.sh.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

runs=7
jobs=2
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scan_phases: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
die() { echo "scan_phases: $*" >&2; exit 1; }
[[ ${#positional[@]} -ge 2 ]] || die "needs PHASES_BENCH and GPUPORT (see --help)"
phases="${positional[0]}"
gpuport="${positional[1]}"
corpus="${positional[2]:-${repo_root}/bench/corpus}"
[[ -x "${phases}" ]] || die "${phases} is not an executable (build the scan_phases_bench target)"
[[ -x "${gpuport}" ]] || die "${gpuport} is not an executable"
[[ -d "${corpus}" ]] || die "no corpus at ${corpus}; make one with: python3 bench/make_corpus.py ${corpus}"
[[ "${runs}" =~ ^[1-9][0-9]*$ ]] || die "--runs needs a positive integer"
[[ "${jobs}" =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive integer"
command -v rg >/dev/null || die "ripgrep not found; install it with: apt-get install -y ripgrep"

# shellcheck source=bench/rg_patterns.sh
source "${script_dir}/rg_patterns.sh"  # sets rg_patterns, as scan_vs_ripgrep.sh uses them

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

tools=(read lex analyze scan gpuport rg)
declare -A times
run_tool() {
  case "$1" in
    rg) rg --no-ignore --hidden -c -j "${jobs}" "${rg_patterns[@]}" "${corpus}" >/dev/null || [[ $? -eq 1 ]] ;;
    gpuport) "${gpuport}" scan "${corpus}" --format text -o "${work}/scan.txt" --jobs "${jobs}" --quiet ;;
    *) "${phases}" "$1" "${corpus}" --jobs "${jobs}" >/dev/null ;;
  esac
}
for tool in "${tools[@]}"; do run_tool "${tool}"; done  # warm-up: the corpus in the page cache
for ((round = 0; round < runs; round++)); do
  for tool in "${tools[@]}"; do
    start=${EPOCHREALTIME}
    run_tool "${tool}"
    end=${EPOCHREALTIME}
    times[${tool}]+="$(awk -v s="${start}" -v e="${end}" 'BEGIN { printf "%.4f", e - s }') "
  done
done

median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rg_median="$(median "${times[rg]}")"
declare -A what=(
  [read]="read every file the scan reads"
  [lex]="+ lex C/C++/CUDA and Python"
  [analyze]="+ rules and inventory, results dropped"
  [scan]="+ results kept and merged (library scan())"
  [gpuport]="gpuport scan --format text (the CLI)"
  [rg]="rg, 15 patterns, ASCII"
)
echo "corpus: ${corpus}; ${jobs} jobs; median of ${runs} rounds (wall seconds, each a whole process)"
echo
echo "| stage | what it does | s | x rg |"
echo "|---|---|---|---|"
for tool in "${tools[@]}"; do
  m="$(median "${times[${tool}]}")"
  echo "| ${tool} | ${what[${tool}]} | ${m} | $(awk -v a="${m}" -v b="${rg_median}" 'BEGIN { printf "%.2f", a / b }') |"
done
