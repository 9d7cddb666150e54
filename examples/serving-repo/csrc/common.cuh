// Shared device helpers for the serving_ext kernels: error checks, bf16 conversions, launch sizing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Every __global__ kernel in this directory takes its stream from PyTorch, never the legacy
// default stream, so CUDA graphs captured by torch.compile stay valid.

#define SERVING_CUDA_CHECK(expr)                                                            \
  do {                                                                                      \
    cudaError_t err__ = (expr);                                                             \
    if (err__ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err__), __FILE__, \
                   __LINE__);                                                               \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

namespace serving {

// Threads per warp on every GPU we deploy to (A100, L4, H100).
constexpr int kWarpSize = 32;
constexpr int kMaxThreads = 256;

__device__ __forceinline__ float to_float(float v) {
  return v;
}
__device__ __forceinline__ float to_float(__half v) {
  return __half2float(v);
}
__device__ __forceinline__ float to_float(__nv_bfloat16 v) {
  return __bfloat162float(v);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);

template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// Block size for a row of `cols` elements: a multiple of the warp size, at most kMaxThreads.
inline int threads_for_row(int cols) {
  int threads = ((cols + kWarpSize - 1) / kWarpSize) * kWarpSize;
  return threads > kMaxThreads ? kMaxThreads : threads;
}

inline int ceil_div(int64_t a, int64_t b) {
  return static_cast<int>((a + b - 1) / b);
}

}  // namespace serving
