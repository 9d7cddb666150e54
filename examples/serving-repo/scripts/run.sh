#!/usr/bin/env bash
# Starts the inference server on the GPU chosen by GPU_INDEX, after checking that the driver sees it.
set -euo pipefail

GPU_INDEX="${GPU_INDEX:-0}"
export CUDA_VISIBLE_DEVICES="${GPU_INDEX}"
export CUDA_MODULE_LOADING=LAZY
export PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True"

if ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "run.sh: nvidia-smi not found; is the NVIDIA container runtime enabled?" >&2
    exit 1
fi
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv -i "${GPU_INDEX}"

# Lock clocks where permitted, for steadier latency (ignored without privileges).
nvidia-smi -i "${GPU_INDEX}" --lock-gpu-clocks=1410,1410 >/dev/null 2>&1 || true

cd "$(dirname "$0")/.."
exec python3 -m server.app "$@"
