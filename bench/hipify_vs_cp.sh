#!/usr/bin/env bash
# `gpuport hipify TREE -o OUT` (warnings on, as a user runs it) against `cp -r TREE OUT` on the
# same tree, alternately, ROUNDS times; prints each median and the ratio (the goal: within 1.5x
# of cp -r, with atomic all-or-nothing output kept). The outputs go under a temporary directory
# on the file system of the current directory (set TMPDIR elsewhere to compare file systems).
#
#   bench/hipify_vs_cp.sh [GPUPORT] [TREE] [ROUNDS]   defaults: build/gpuport, bench/corpus, 5
set -euo pipefail
gpuport=${1:-build/gpuport}
tree=${2:-bench/corpus}
rounds=${3:-5}
if [ ! -d "$tree" ]; then
  if [ "$tree" = bench/corpus ]; then
    python3 bench/make_corpus.py bench/corpus >/dev/null
  else
    echo "hipify_vs_cp.sh: no tree at $tree" >&2
    exit 2
  fi
fi
work=$(mktemp -d "${TMPDIR:-$PWD}/.hipify-vs-cp-XXXXXX")
trap 'rm -rf "$work"' EXIT

elapsed() {  # COMMAND...: seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

hipify_times=()
cp_times=()
for round in $(seq "$rounds"); do
  rm -rf "$work/hipify" "$work/cp"
  hipify_times+=("$(elapsed "$gpuport" hipify "$tree" -o "$work/hipify" -q)")
  cp_times+=("$(elapsed cp -r "$tree" "$work/cp")")
done
python3 - "$tree" "${hipify_times[*]}" "${cp_times[*]}" <<'PY'
import statistics, subprocess, sys
tree, hipify, cp = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
files = int(subprocess.run(["find", tree, "-type", "f"], capture_output=True, text=True).stdout.count("\n"))
size = subprocess.run(["du", "-sh", tree], capture_output=True, text=True).stdout.split()[0]
h, c = statistics.median(hipify), statistics.median(cp)
print(f"tree: {tree} ({files} files, {size}), {len(hipify)} rounds each, medians")
print(f"gpuport hipify -o: {h:.3f} s   cp -r: {c:.3f} s   ratio: {h / c:.2f}")
PY
