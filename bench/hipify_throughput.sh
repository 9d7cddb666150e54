#!/usr/bin/env bash
# Times `gpuport hipify`'s translator (one thread, warnings on) against an emulation of
# hipify-perl's method on the same C/C++/CUDA files, in one run, and prints MB/s and the ratio.
#
# Usage: bench/hipify_throughput.sh [--runs N] [--mb MB] [--peer-mb MB] [BENCH [CORPUS]]
#   BENCH       the hipify_bench binary (default: build-bench/hipify_bench under the repository
#               root; build it with -DGPUPORT_BUILD_BENCH=ON)
#   CORPUS      corpus directory (default: bench/corpus); generated with make_corpus.py if missing
#   --runs N    timed runs of the translator after one warm-up (default 3; median taken)
#   --mb MB     size of a corpus generated here (default 90: about 60 MB of C/C++/CUDA)
#   --peer-mb MB  size of the subset both tools are timed on for the ratio (default 4): the perl
#               emulation runs one regex pass per mapping entry and is far too slow for the whole
#               corpus
#
# The peer is NOT hipify-perl itself (it is not installable here): it is a perl script generated
# from gpuport's own mapping table that does what hipify-perl does for each file, slurp the file
# and apply one global `s/\bNAME\b/REPL/g` per mapping entry in sequence, without hipify-perl's
# warning passes (as with -quiet-warnings). Its cost is therefore a lower bound of hipify-perl's.
# Needs: bash, python3, perl.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

runs=3
corpus_mb=90
peer_mb=4
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --mb) corpus_mb="$2"; shift 2 ;;
    --peer-mb) peer_mb="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "hipify_throughput: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
bench="${positional[0]:-${repo_root}/build-bench/hipify_bench}"
corpus="${positional[1]:-${repo_root}/bench/corpus}"

die() { echo "hipify_throughput: $*" >&2; exit 1; }
command -v perl >/dev/null || die "perl not found (apt-get install -y perl)"
command -v python3 >/dev/null || die "python3 not found (apt-get install -y python3)"
[[ -x "${bench}" ]] || die "bench binary not found at ${bench}; configure with -DGPUPORT_BUILD_BENCH=ON and build the hipify_bench target, or pass its path"

if [[ ! -d "${corpus}" ]]; then
  echo "hipify_throughput: generating a ${corpus_mb} MB corpus in ${corpus}" >&2
  python3 "${script_dir}/make_corpus.py" "${corpus}" --mb "${corpus_mb}" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# The C/C++/CUDA files (the suffixes gpuport reads as C, C++ or CUDA), in a stable order.
find "${corpus}" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.c' -o -name '*.cc' \
  -o -name '*.cpp' -o -name '*.cxx' -o -name '*.h' -o -name '*.hh' -o -name '*.hpp' \
  -o -name '*.hxx' -o -name '*.inl' -o -name '*.inc' \) | LC_ALL=C sort >"${work}/all.txt"
all_bytes="$(xargs -d '\n' cat <"${work}/all.txt" | wc -c)"
[[ "${all_bytes}" -ge 50000000 ]] || echo "hipify_throughput: note: only ${all_bytes} bytes of C/C++/CUDA (< 50 MB); use --mb to grow the corpus" >&2

# The subset both tools are timed on: every k-th file until peer_mb is reached, so it samples
# every repository of the corpus rather than the first one.
python3 - "${work}/all.txt" "${peer_mb}" >"${work}/subset.txt" <<'PY'
import os, sys
paths = [p for p in open(sys.argv[1]).read().split("\n") if p]
budget = float(sys.argv[2]) * 1e6
total = sum(os.path.getsize(p) for p in paths)
step = max(1, int(total / budget))
picked, size = [], 0
for i in range(0, len(paths), step):
    if size >= budget:
        break
    picked.append(paths[i])
    size += os.path.getsize(paths[i])
print("\n".join(picked))
PY
subset_bytes="$(xargs -d '\n' cat <"${work}/subset.txt" | wc -c)"

"${bench}" --emit-perl "${work}/hipify_perl_emulation.pl"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

cpu_model="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
echo "corpus:  ${corpus}: $(wc -l <"${work}/all.txt") C/C++/CUDA files, $(mb "${all_bytes}") MB"
echo "subset:  $(wc -l <"${work}/subset.txt") files, $(mb "${subset_bytes}") MB (both tools)"
echo "machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}; one thread per tool"
echo "peer:    an EMULATION of hipify-perl's method (slurp, one s/\\bNAME\\b/REPL/g per mapping"
echo "         entry, no warning passes), generated from gpuport's table; not hipify-perl itself"
echo

"${bench}" --runs "${runs}" --list "${work}/all.txt" >"${work}/full.out"
full_rate="$(value gpuport_mb_per_s "${work}/full.out")"
full_cpu_rate="$(value gpuport_cpu_mb_per_s "${work}/full.out")"
echo "gpuport translator, whole corpus, warnings on: ${full_rate} MB/s wall, ${full_cpu_rate} MB/s of CPU time"
echo "         ($(sed -n 1p "${work}/full.out"))"

"${bench}" --runs "${runs}" --list "${work}/subset.txt" >"${work}/subset.out"
gp_rate="$(value gpuport_mb_per_s "${work}/subset.out")"
gp_cpu_rate="$(value gpuport_cpu_mb_per_s "${work}/subset.out")"
perl "${work}/hipify_perl_emulation.pl" "$(head -n 1 "${work}/subset.txt")" 2>/dev/null  # warm-up
# Wall time and the CPU time (user + sys) of perl, from bash's `time`.
TIMEFORMAT='%R %U %S'
{ time xargs -d '\n' perl "${work}/hipify_perl_emulation.pl" <"${work}/subset.txt" 2>"${work}/perl.err"; } 2>"${work}/perl.time"
read -r perl_wall perl_user perl_sys <"${work}/perl.time"
perl_rate="$(awk -v b="${subset_bytes}" -v s="${perl_wall}" 'BEGIN { printf "%.2f", b / 1e6 / s }')"
perl_cpu_rate="$(awk -v b="${subset_bytes}" -v u="${perl_user}" -v s="${perl_sys}" 'BEGIN { printf "%.2f", b / 1e6 / (u + s) }')"
ratio="$(awk -v a="${gp_rate}" -v b="${perl_rate}" 'BEGIN { printf "%.0f", a / b }')"
cpu_ratio="$(awk -v a="${gp_cpu_rate}" -v b="${perl_cpu_rate}" 'BEGIN { printf "%.0f", a / b }')"

echo "gpuport translator, subset, warnings on:      ${gp_rate} MB/s wall, ${gp_cpu_rate} MB/s of CPU time"
echo "hipify-perl method (emulated), subset:        ${perl_rate} MB/s wall, ${perl_cpu_rate} MB/s of CPU time ($(cat "${work}/perl.err"))"
echo "ratio gpuport / hipify-perl emulation:        ${ratio}x wall, ${cpu_ratio}x CPU time"
verdict="$(awk -v r="${full_cpu_rate}" 'BEGIN { print (r >= 100) ? "meets" : "MISSES" }')"
echo "target: >= 100 MB/s on one core with warnings on (CPU time, whole corpus): ${full_cpu_rate} MB/s, ${verdict}"
echo "note:    wall-clock figures drop when other work shares the CPUs; CPU time is the per-core cost"
