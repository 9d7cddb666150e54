#!/usr/bin/env bash
# Counts the instructions a scan executes (valgrind's callgrind), for comparing two builds on a
# machine whose speed drifts: wall times on a shared virtual machine move by a third from hour to
# hour, an instruction count by a few dozen in a billion. Generates a small corpus with
# make_corpus.py, runs `GPUPORT scan CORPUS --jobs 1` under callgrind, and prints the total and
# the functions that execute the most; with a second binary, both totals and the ratio.
#
# An instruction count is not a time: page faults, cache misses and mispredicted branches do not
# show in it. Confirm a change that looks good here with scan_vs_ripgrep.sh or scan_phases.sh.
#
# Usage: bench/scan_instructions.sh [--mb N] [--top K] GPUPORT [GPUPORT_B]
#   GPUPORT     the gpuport binary (a Release build)
#   GPUPORT_B   a second binary to compare with the first, on the same corpus
#   --mb N      corpus size in MB (default 20; about 5 seconds per binary under callgrind)
#   --top K     functions listed per binary (default 15)
# Needs: bash, python3, valgrind (apt-get install -y valgrind).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

mb=20
top=15
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mb) mb="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scan_instructions: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
die() { echo "scan_instructions: $*" >&2; exit 1; }
[[ ${#positional[@]} -ge 1 && ${#positional[@]} -le 2 ]] || die "needs one or two gpuport binaries (see --help)"
[[ "${mb}" =~ ^[1-9][0-9]*$ ]] || die "--mb needs a positive integer"
[[ "${top}" =~ ^[1-9][0-9]*$ ]] || die "--top needs a positive integer"
for binary in "${positional[@]}"; do
  [[ -x "${binary}" ]] || die "${binary} is not an executable"
done
command -v valgrind >/dev/null || die "valgrind not found; install it with: apt-get install -y valgrind"
command -v callgrind_annotate >/dev/null || die "callgrind_annotate not found (it comes with valgrind)"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
python3 "${script_dir}/make_corpus.py" "${work}/corpus" --mb "${mb}" --seed 2 >&2

totals=()
for binary in "${positional[@]}"; do
  out="${work}/callgrind.$((${#totals[@]}))"
  valgrind --tool=callgrind --callgrind-out-file="${out}" "${binary}" scan "${work}/corpus" \
    --format text -o "${work}/report.txt" --jobs 1 --quiet 2>/dev/null
  total="$(callgrind_annotate "${out}" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')"
  [[ -n "${total}" ]] || die "callgrind wrote no total for ${binary}"
  totals+=("${total}")
  echo
  echo "${binary}: ${total} instructions (scan of ${mb} MB, 1 job)"
  # The function lines: "N (P%)  file:function [object]", shortened to the function's name.
  # awk reads to the end (no early exit), so no stage of the pipe dies of a closed pipe.
  callgrind_annotate "${out}" |
    awk -v top="${top}" '/file:function/ { on = 1; getline; next } on && NF == 0 { on = 0 } on && shown < top { print; shown++ }' |
    sed -E 's/\?\?\?://; s/\(anonymous namespace\)/{anon}/g; s/ \[[^]]*\]$//; s/(%\)  [^(]+)\(.*/\1/' | cut -c1-120
done

if [[ ${#totals[@]} -eq 2 ]]; then
  echo
  awk -v a="${totals[0]}" -v b="${totals[1]}" \
    'BEGIN { printf "second / first: %.4f (%+.1f %% instructions)\n", b / a, (b / a - 1) * 100 }'
fi
