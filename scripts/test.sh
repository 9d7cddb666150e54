#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds gpuport and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
