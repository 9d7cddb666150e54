# Sourced by bench/scan_vs_ripgrep.sh and bench/scan_phases.sh: ripgrep's side of the scan
# benchmark, the 15 patterns of the throughput anchor, each in ASCII mode ((?-u): byte-oriented
# \b, \w, \s). Sets `rg_patterns`, ready to splice into an rg command line as -e PATTERN pairs.
# shellcheck shell=bash
patterns=(
  '\b__global__\b'
  '\b(asm|__asm__|__asm)(\s+(volatile|__volatile__))?\s*\('
  'nvcuda::wmma'
  '\b(mma\.sync|wgmma\.|ldmatrix\.|cp\.async|tcgen05\.)'
  '\b__(shfl(_xor|_up|_down)?_sync|ballot_sync|any_sync|all_sync|activemask|syncwarp)\b'
  '\b0x[fF]{8}\b'
  '(?i)\bwarp_?size\w*\s*(=|\s)\s*32\b'
  '\bcublas(Lt)?[A-Z]\w*\s*\('
  '\bcudnn[A-Z]\w*\s*\('
  '\b(cutlass|cute)::'
  '@triton\.jit'
  '^\s*(import|from)\s+(tensorrt|torch|onnxruntime|vllm|sglang|triton|cutlass)\b'
  'NvInfer|nvinfer1::'
  '\bCUDAExtension\b'
  '\btrtexec\b'
)
rg_patterns=()
for p in "${patterns[@]}"; do rg_patterns+=(-e "(?-u)${p}"); done
unset p patterns
