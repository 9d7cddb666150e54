// bf16 linear layer through cuBLAS (one handle per thread, bound to PyTorch's current stream).
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#include <torch/extension.h>

#include <stdexcept>
#include <string>

#include "ops.h"

namespace serving {

namespace {

// Signature of cublasGemmEx; the profiling shim resolves it with dlsym to count calls.
typedef cublasStatus_t (*gemm_ex_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                     int, const void*, const void*, cudaDataType, int, const void*,
                                     cudaDataType, int, const void*, void*, cudaDataType, int,
                                     cublasComputeType_t, cublasGemmAlgo_t);

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cuBLAS failure in ") + what + ": " +
                             std::to_string(static_cast<int>(status)));
  }
}

cublasHandle_t thread_handle() {
  thread_local cublasHandle_t handle = nullptr;
  if (handle == nullptr) {
    check_cublas(cublasCreate(&handle), "cublasCreate");
    check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  return handle;
}

}  // namespace

torch::Tensor linear_bf16(const torch::Tensor& x, const torch::Tensor& w) {
  TORCH_CHECK(x.scalar_type() == at::kBFloat16 && w.scalar_type() == at::kBFloat16,
              "linear_bf16: bf16 inputs only");
  TORCH_CHECK(x.size(-1) == w.size(1), "linear_bf16: inner dimensions differ");
  const int k = static_cast<int>(w.size(1));
  const int n = static_cast<int>(w.size(0));
  const int m = static_cast<int>(x.numel() / k);
  auto out_sizes = x.sizes().vec();
  out_sizes.back() = n;
  auto y = torch::empty(out_sizes, x.options());

  cublasHandle_t handle = thread_handle();
  check_cublas(cublasSetStream(handle, at::cuda::getCurrentCUDAStream()), "cublasSetStream");

  // Row-major y[m, n] = x[m, k] * w[n, k]^T is column-major y^T = w * x^T.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  check_cublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, w.data_ptr(),
                            CUDA_R_16BF, k, x.data_ptr(), CUDA_R_16BF, k, &beta, y.data_ptr(),
                            CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP),
               "cublasGemmEx");
  return y;
}

}  // namespace serving
