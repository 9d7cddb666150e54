// Host entry points of the serving_ext extension, bound to Python in bindings.cpp.
#pragma once

#include <torch/extension.h>

namespace serving {

// RMSNorm over the last dimension: out = x / rms(x) * weight. x is [tokens, hidden], bf16 or fp16.
torch::Tensor rms_norm(const torch::Tensor& x, const torch::Tensor& weight, double eps);

// Row softmax with an additive mask; fully masked rows produce zeros instead of NaN.
torch::Tensor masked_softmax(const torch::Tensor& scores, const torch::Tensor& mask);

// Dequantizes int4 weights (8 values per int32, per-group bf16 scales) to bf16.
torch::Tensor dequant_int4(const torch::Tensor& packed, const torch::Tensor& scales, int64_t group);

// Applies rotary position embeddings in place to q and k ([tokens, heads, head_dim], bf16).
void rotary_embedding(torch::Tensor& q, torch::Tensor& k, const torch::Tensor& positions,
                      const torch::Tensor& cos_sin_cache);

// y = x @ w^T through cuBLAS, bf16 in, fp32 accumulate, bf16 out.
torch::Tensor linear_bf16(const torch::Tensor& x, const torch::Tensor& w);

}  // namespace serving
