// Kernel classes and owners: ordered rules kept as data in one table (classify_rules.cpp,
// documented in docs/kernel-classes.md), refined by the API that launched the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profile/kernel_name.h"

namespace gpuport {

// How the host launched a kernel (the correlated runtime/driver call), which says a lot about
// where its code came from: runtime launches are compiled C++/CUDA (a framework or the team's
// extension), module/driver launches are JIT or cubin code, the Ex variants are vendor BLAS.
enum class LaunchApi : std::uint8_t {
  Unknown,    // no correlated launch call in the trace
  Runtime,    // cudaLaunchKernel, hipLaunchKernel, cudaLaunchCooperativeKernel
  RuntimeEx,  // cudaLaunchKernelExC, hipExtModuleLaunchKernel, hipExtLaunchKernel
  Module,     // cuLaunchKernel(Ex), hipModuleLaunchKernel
  Graph,      // cudaGraphLaunch, hipGraphLaunch: the per-kernel signal is lost
};
// Maps an API name as a trace spells it (`cudaLaunchKernel_v7000` included) to its kind.
LaunchApi launch_api_of(std::string_view api_name);
std::string_view launch_api_name(LaunchApi api);  // "runtime", "runtime-ex", "module", ...

enum class KernelClass : std::uint8_t {
  VendorBlas,   // cuBLAS/cuBLASLt (incl. CUTLASS shipped inside cuBLAS), rocBLAS/hipBLASLt/Tensile
  VendorDnn,    // cuDNN, MIOpen
  VendorOther,  // CUB/Thrust/rocPRIM/hipCUB, cuFFT, cuSPARSE, ... vendor libraries that are not
                // BLAS/DNN
  Framework,    // PyTorch ATen and other framework-native kernels
  Attention,    // FlashAttention, FlashInfer, xFormers, PyTorch SDPA backends, AOTriton, CK FMHA
  Communication,  // NCCL, RCCL
  Jit,            // Triton (Inductor or hand-written), nvFuser
  TensorRt,       // TensorRT, TensorRT-LLM kernels
  ServingEngine,  // vLLM, SGLang, AITER... custom ops of a serving engine
  Cutlass,  // CUTLASS/CuTe templates instantiated by a framework or the team (owner = namespace)
  Memory,   // memcpy/memset activities and runtime copy/fill kernels
  Unknown,
};
std::string_view class_name(KernelClass klass);  // "vendor-blas", "framework", ...

struct Classification {
  KernelClass klass = KernelClass::Unknown;
  std::string owner;  // "cuBLAS", "PyTorch ATen", "FlashAttention", "vLLM", "dpsk" (a template
                      // argument's namespace), "" when unknown
  std::string rule;   // id of the rule that decided it, e.g. "blas.cublas-xmma" ("" when none)
  // The team's own code, or a candidate for it: no library rule matched and the kernel was
  // launched through the runtime API (or a rule says the owner is user code).
  bool own_code = false;
};

// `name` comes from parse_kernel_name(); copies and fills are classified by the caller (Memory).
// Costs O(rules x name length): classify each unique name once, not each dispatch.
Classification classify_kernel(const KernelName& name, LaunchApi launch);

}  // namespace gpuport
