#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled example serving repository.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/gpuport scan examples/serving-repo "$@"
