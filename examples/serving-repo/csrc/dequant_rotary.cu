// Int4 weight dequantization (PTX lop3/prmt fast path) and in-place rotary embedding, bf16.
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <torch/extension.h>

#include "common.cuh"
#include "ops.h"

namespace serving {

// Eight int4 values packed in one uint32 become eight bf16 values. The nibble is OR-ed into the
// mantissa of bf16 128.0 (0x4300) by one lop3, then 128 + 8 (the zero point) is subtracted.
__device__ __forceinline__ void int4x8_to_bf16x8(uint32_t packed, __nv_bfloat162 (&out)[4]) {
  constexpr uint32_t kLowNibbles = 0x000f000f;
  constexpr uint32_t kBf16Base = 0x43004300;
  constexpr int kImmLut = (0xf0 & 0xcc) | 0xaa;  // (a & b) | c
  uint32_t* h = reinterpret_cast<uint32_t*>(out);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint32_t src = packed >> (4 * i);
    asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n"
                 : "=r"(h[i])
                 : "r"(src), "n"(kLowNibbles), "n"(kBf16Base), "n"(kImmLut));
  }
  const __nv_bfloat162 bias = __float2bfloat162_rn(136.0f);
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out[i] = __hsub2(out[i], bias);
}

// Swaps the 16-bit halves of two registers so (x0, x1), (y0, y1) becomes (x0, y0), (x1, y1).
__device__ __forceinline__ void interleave_halves(uint32_t a, uint32_t b, uint32_t& lo,
                                                  uint32_t& hi) {
  asm("prmt.b32 %0, %1, %2, 0x5410;\n" : "=r"(lo) : "r"(a), "r"(b));
  asm("prmt.b32 %0, %1, %2, 0x7632;\n" : "=r"(hi) : "r"(a), "r"(b));
}

// packed: [rows, cols / 8] int32; scales: [rows, cols / group] bf16; out: [rows, cols] bf16.
__global__ void dequant_int4_kernel(__nv_bfloat16* __restrict__ out,
                                    const uint32_t* __restrict__ packed,
                                    const __nv_bfloat16* __restrict__ scales, int rows, int cols,
                                    int group) {
  const int words_per_row = cols / 8;
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * words_per_row)
    return;
  const int row = idx / words_per_row;
  const int col = (idx % words_per_row) * 8;
  __nv_bfloat162 v[4];
  int4x8_to_bf16x8(__ldg(packed + idx), v);
  const __nv_bfloat162 s = __bfloat162bfloat162(scales[row * (cols / group) + col / group]);
  uint32_t w[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    __nv_bfloat162 scaled = __hmul2(v[i], s);
    w[i] = *reinterpret_cast<uint32_t*>(&scaled);
  }
  uint4 result;
  interleave_halves(w[0], w[1], result.x, result.y);
  interleave_halves(w[2], w[3], result.z, result.w);
  *reinterpret_cast<uint4*>(out + static_cast<size_t>(row) * cols + col) = result;
}

// Loads four 8x8 bf16 tiles of the cos/sin cache from shared memory into registers. Used by the
// sm_80 prefill path; the decode kernel below reads the cache directly.
__device__ __forceinline__ void load_cache_tile(const __nv_bfloat16* smem, uint32_t (&r)[4]) {
#if __CUDA_ARCH__ >= 800
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
#else
  const uint32_t* p = reinterpret_cast<const uint32_t*>(smem);
  const int lane = threadIdx.x & 31;
  for (int i = 0; i < 4; ++i)
    r[i] = p[i * 32 + lane];
#endif
}

// One block per token; q and k are [tokens, heads, head_dim] with the rotated half first.
__global__ void rotary_kernel(__nv_bfloat16* __restrict__ q, __nv_bfloat16* __restrict__ k,
                              const int64_t* __restrict__ positions,
                              const __nv_bfloat16* __restrict__ cos_sin_cache, int q_heads,
                              int k_heads, int head_dim) {
  const int half = head_dim / 2;
  const __nv_bfloat16* cache = cos_sin_cache + positions[blockIdx.x] * head_dim;
  const int total = (q_heads + k_heads) * half;
  for (int i = threadIdx.x; i < total; i += blockDim.x) {
    const int head = i / half;
    const int j = i % half;
    __nv_bfloat16* base =
        head < q_heads
            ? q + (static_cast<size_t>(blockIdx.x) * q_heads + head) * head_dim
            : k + (static_cast<size_t>(blockIdx.x) * k_heads + head - q_heads) * head_dim;
    const float c = __bfloat162float(cache[j]);
    const float s = __bfloat162float(cache[half + j]);
    const float x0 = __bfloat162float(base[j]);
    const float x1 = __bfloat162float(base[half + j]);
    base[j] = __float2bfloat16_rn(x0 * c - x1 * s);
    base[half + j] = __float2bfloat16_rn(x1 * c + x0 * s);
  }
}

torch::Tensor dequant_int4(const torch::Tensor& packed, const torch::Tensor& scales,
                           int64_t group) {
  TORCH_CHECK(packed.dtype() == torch::kInt32, "dequant_int4: packed must be int32");
  const int rows = static_cast<int>(packed.size(0));
  const int cols = static_cast<int>(packed.size(1) * 8);
  auto out = torch::empty({rows, cols}, packed.options().dtype(torch::kBFloat16));
  const int threads = 256;
  const int blocks = ceil_div(static_cast<int64_t>(rows) * (cols / 8), threads);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dequant_int4_kernel<<<blocks, threads, 0, stream>>>(
      reinterpret_cast<__nv_bfloat16*>(out.data_ptr()),
      reinterpret_cast<const uint32_t*>(packed.data_ptr()),
      reinterpret_cast<const __nv_bfloat16*>(scales.data_ptr()), rows, cols,
      static_cast<int>(group));
  SERVING_CUDA_CHECK(cudaGetLastError());
  return out;
}

void rotary_embedding(torch::Tensor& q, torch::Tensor& k, const torch::Tensor& positions,
                      const torch::Tensor& cos_sin_cache) {
  const int tokens = static_cast<int>(q.size(0));
  const int head_dim = static_cast<int>(q.size(2));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  rotary_kernel<<<tokens, kMaxThreads, 0, stream>>>(
      reinterpret_cast<__nv_bfloat16*>(q.data_ptr()),
      reinterpret_cast<__nv_bfloat16*>(k.data_ptr()), positions.data_ptr<int64_t>(),
      reinterpret_cast<const __nv_bfloat16*>(cos_sin_cache.data_ptr()), static_cast<int>(q.size(1)),
      static_cast<int>(k.size(1)), head_dim);
  SERVING_CUDA_CHECK(cudaGetLastError());
}

}  // namespace serving
