#!/usr/bin/env bash
# The HTML audit report against the JSON one on the same generated trees of N and 2N CUDA files
# (one kernel, one launch and three findings each): both wall times, HTML/JSON per size, and how
# each grows from N to 2N (2.0 is linear). The HTML report was quadratic in the kernels (a search
# of every finding per kernel finding): 187 s against 4.5 s for JSON on 100,000 files.
#
#   bench/audit_html_scaling.sh [GPUPORT] [N]      defaults: build/gpuport, 20000
set -euo pipefail
gpuport=${1:-build/gpuport}
files=${2:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_tree() {  # DIR COUNT
  python3 - "$1" "$2" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    folder = f"{root}/src/m{i % 200}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/k{i}.cu", "w") as out:
        out.write("#include <cuda_runtime.h>\n"
                  f"__global__ void k{i}(float* x) {{ x[threadIdx.x % 32] += "
                  "__shfl_xor_sync(0xffffffff, x[0], 1); }\n"
                  f"void run{i}(float* d) {{ k{i}<<<1, 64>>>(d); cudaDeviceSynchronize(); }}\n")
PY
}

seconds() {  # FORMAT TREE
  local start end
  start=$(date +%s.%N)
  "$gpuport" audit "$2" -q -j 2 --format "$1" -o "$work/report.$1" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

declare -A took
for size in "$files" $((files * 2)); do
  make_tree "$work/tree$size" "$size"
  for format in json html; do
    took[$format$size]=$(seconds "$format" "$work/tree$size")
  done
  rm -rf "$work/tree$size"
  python3 -c "print(f'{$size:>7} files: json {${took[json$size]}:6.2f} s, html {${took[html$size]}:6.2f} s, html/json {${took[html$size]} / ${took[json$size]}:.2f}')"
done
python3 -c "print(f'growth from {$files} to {$files * 2} files (2.0 = linear): json {${took[json$((files * 2))]} / ${took[json$files]}:.2f}, html {${took[html$((files * 2))]} / ${took[html$files]}:.2f}')"
