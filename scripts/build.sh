#!/usr/bin/env bash
# Configures and builds gpuport (and its tests) into build/. Release: no debug info, which takes
# about a third of the compile time (CI builds from scratch); configure build/ yourself with
# -DCMAKE_BUILD_TYPE=RelWithDebInfo (the CMake default here) for a debugger.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
