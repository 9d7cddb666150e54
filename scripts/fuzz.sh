#!/usr/bin/env bash
# Builds the libFuzzer targets with ASan+UBSan (clang) and runs each for SECONDS (default 300).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh fuzz
seconds="${1:-300}"
shift || true
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUPORT_BUILD_FUZZERS=ON -DGPUPORT_BUILD_TESTS=OFF >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  cmake --build build-fuzz
  mapfile -t targets < <(cd fuzz && ls *_fuzzer.cpp | sed 's/\.cpp$//')
else
  cmake --build build-fuzz --target "${targets[@]}"  # only what the named targets need
fi
for target in "${targets[@]}"; do
  corpus="build-fuzz/corpus-$target"
  mkdir -p "$corpus"
  # Seed with the repository's own fixtures so the fuzzer starts from realistic inputs.
  find tests/fixtures examples config -type f -size -64k -exec cp -t "$corpus" {} + 2>/dev/null || true
  # The SQLite reader also starts from real databases, built from the .sql fixtures.
  if [ "$target" = sqlite_trace_fuzzer ] && command -v sqlite3 >/dev/null; then
    for sql in tests/fixtures/profile/tables/*.sql; do
      db="$corpus/$(basename "$sql" .sql).sqlite"
      rm -f "$db"
      sqlite3 "$db" <"$sql"
    done
  fi
  echo "== $target: ${seconds}s"
  "./build-fuzz/$target" "$corpus" -max_total_time="$seconds" -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/$target-" 2>&1 | tail -n 12
done
