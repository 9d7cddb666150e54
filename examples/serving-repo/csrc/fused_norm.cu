// Fused RMSNorm and masked row softmax for the decoder hot path (one block per row).
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <torch/extension.h>

#include "common.cuh"
#include "ops.h"

namespace serving {

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__device__ __forceinline__ float warp_reduce_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

// Block-wide reduction: each warp writes one partial, then warp 0 folds the partials.
template <bool kMax>
__device__ float block_reduce(float v) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  v = kMax ? warp_reduce_max(v) : warp_reduce_sum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  const int num_warps = (blockDim.x + 31) / 32;
  const float identity = kMax ? -INFINITY : 0.0f;
  v = (lane < num_warps) ? partial[lane] : identity;
  if (warp == 0)
    v = kMax ? warp_reduce_max(v) : warp_reduce_sum(v);
  __syncthreads();
  return v;  // valid in warp 0
}

template <typename T>
__global__ void __launch_bounds__(256, 2)
    rms_norm_kernel(T* __restrict__ out, const T* __restrict__ in, const T* __restrict__ weight,
                    int hidden, float eps) {
  __shared__ float s_inv_rms;
  const T* x = in + static_cast<size_t>(blockIdx.x) * hidden;
  T* y = out + static_cast<size_t>(blockIdx.x) * hidden;

  float sum_sq = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float f = to_float(x[i]);
    sum_sq += f * f;
  }
  sum_sq = block_reduce<false>(sum_sq);
  if (threadIdx.x == 0)
    s_inv_rms = rsqrtf(sum_sq / hidden + eps);
  __syncthreads();

  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    y[i] = from_float<T>(to_float(x[i]) * s_inv_rms * to_float(weight[i]));
  }
}

// scores and mask are [rows, cols]; the row is staged in dynamic shared memory.
template <typename T>
__global__ void __launch_bounds__(256, 2)
    masked_softmax_kernel(T* __restrict__ out, const T* __restrict__ scores,
                          const T* __restrict__ mask, int cols) {
  extern __shared__ float row[];
  const size_t base = static_cast<size_t>(blockIdx.x) * cols;
  const int lane = threadIdx.x % kWarpSize;

  __shared__ float s_max;
  __shared__ int s_any_live;
  if (threadIdx.x == 0)
    s_any_live = 0;
  __syncthreads();

  // The trip count is uniform across the block so every lane reaches the ballot.
  float local_max = -INFINITY;
  int live_lanes = 0;
  for (int start = 0; start < cols; start += blockDim.x) {
    const int i = start + threadIdx.x;
    const float v = i < cols ? to_float(scores[base + i]) + to_float(mask[base + i]) : -INFINITY;
    if (i < cols)
      row[i] = v;
    local_max = fmaxf(local_max, v);
    // Count live (unmasked) positions per warp to detect fully masked rows cheaply.
    unsigned live = __ballot_sync(0xffffffff, v > -INFINITY);
    if (lane == 0)
      live_lanes += __popc(live);
  }
  if (lane == 0 && live_lanes > 0)
    atomicOr(&s_any_live, 1);
  const float row_max = block_reduce<true>(local_max);
  if (threadIdx.x == 0)
    s_max = row_max;
  __syncthreads();

  float local_sum = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float e = s_any_live ? __expf(row[i] - s_max) : 0.0f;
    row[i] = e;
    local_sum += e;
  }
  const float total = block_reduce<false>(local_sum);
  __shared__ float s_inv_sum;
  if (threadIdx.x == 0)
    s_inv_sum = total > 0.0f ? 1.0f / total : 0.0f;
  __syncthreads();

  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    out[base + i] = from_float<T>(row[i] * s_inv_sum);
  }
}

torch::Tensor rms_norm(const torch::Tensor& x, const torch::Tensor& weight, double eps) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "rms_norm: x must be a contiguous CUDA tensor");
  const int hidden = static_cast<int>(x.size(-1));
  const int rows = static_cast<int>(x.numel() / hidden);
  auto out = torch::empty_like(x);
  const dim3 grid(rows);
  const dim3 block(threads_for_row(hidden));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  if (x.scalar_type() == at::kBFloat16) {
    rms_norm_kernel<__nv_bfloat16><<<grid, block, 0, stream>>>(
        reinterpret_cast<__nv_bfloat16*>(out.data_ptr()),
        reinterpret_cast<const __nv_bfloat16*>(x.data_ptr()),
        reinterpret_cast<const __nv_bfloat16*>(weight.data_ptr()), hidden, static_cast<float>(eps));
  } else {
    rms_norm_kernel<__half><<<grid, block, 0, stream>>>(
        reinterpret_cast<__half*>(out.data_ptr()), reinterpret_cast<const __half*>(x.data_ptr()),
        reinterpret_cast<const __half*>(weight.data_ptr()), hidden, static_cast<float>(eps));
  }
  SERVING_CUDA_CHECK(cudaGetLastError());
  return out;
}

torch::Tensor masked_softmax(const torch::Tensor& scores, const torch::Tensor& mask) {
  TORCH_CHECK(scores.scalar_type() == at::kBFloat16, "masked_softmax: bf16 only");
  const int cols = static_cast<int>(scores.size(-1));
  const int rows = static_cast<int>(scores.numel() / cols);
  auto out = torch::empty_like(scores);
  const dim3 grid(rows);
  const dim3 block(threads_for_row(cols));
  const size_t smem = static_cast<size_t>(cols) * sizeof(float);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  masked_softmax_kernel<__nv_bfloat16><<<grid, block, smem, stream>>>(
      reinterpret_cast<__nv_bfloat16*>(out.data_ptr()),
      reinterpret_cast<const __nv_bfloat16*>(scores.data_ptr()),
      reinterpret_cast<const __nv_bfloat16*>(mask.data_ptr()), cols);
  SERVING_CUDA_CHECK(cudaGetLastError());
  return out;
}

}  // namespace serving
