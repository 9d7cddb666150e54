#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled example: `gpuport audit` of the example
# serving repository with its (synthetic) H100 trace and price config. Prints the verdict and
# where the HTML report was written (build/gpuport-report.html). Extra arguments go to
# `gpuport audit` (e.g. --format markdown -o -).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/gpuport audit examples/serving-repo \
  --trace examples/traces/serving-h100.json.gz \
  --config examples/gpuport.toml \
  -o build/gpuport-report.html "$@"
