#include "audit/measure_first.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace gpuport {

namespace {

struct Counterpart {
  std::string_view what;
  std::string_view amd;
  std::string_view how;
};

// AMD counterparts from the project's reference notes (frameworks.md, porting-hazards.md §4.6);
// the steps name the tools a team runs (`gpuport bench`, `gpuport profile` on a ROCm trace).
std::optional<Counterpart> counterpart(KernelClass klass) {
  switch (klass) {
    case KernelClass::VendorBlas:
      return Counterpart{"cuBLAS / cuBLASLt GEMMs", "hipBLASLt / rocBLAS",
                         "compare GEMM time at the trace's shapes; if slower, tune hipBLASLt's "
                         "solutions for those shapes"};
    case KernelClass::VendorDnn:
      return Counterpart{"cuDNN kernels", "MIOpen",
                         "compare convolution and normalisation time after MIOpen's find step has "
                         "tuned the shapes"};
    case KernelClass::VendorOther:
      return Counterpart{"CUB, Thrust and CUDA math-library kernels",
                         "hipCUB / rocPRIM, rocThrust, hipFFT, hipSPARSE", "compare their time"};
    case KernelClass::Framework:
      return Counterpart{"PyTorch (ATen) kernels", "PyTorch's ROCm build",
                         "compare the framework's share; ATen's HIP kernels are the same code, "
                         "compiled for wave64"};
    case KernelClass::Attention:
      return Counterpart{"attention kernels (FlashAttention, SDPA, FlashInfer)",
                         "Composable Kernel / aiter FlashAttention, AOTriton (SDPA on ROCm)",
                         "benchmark the attention backend at the service's sequence lengths and "
                         "head sizes; check which backend the AMD run selects in its profile"};
    case KernelClass::Communication:
      return Counterpart{"NCCL collectives", "RCCL",
                         "compare collective time at the deployment's message sizes and GPU "
                         "count, in a multi-GPU benchmark"};
    case KernelClass::Jit:
      return Counterpart{"Triton kernels", "Triton's AMD backend",
                         "re-run their autotuning on the AMD GPU (wave64: num_warps, block "
                         "sizes), then compare their time"};
    case KernelClass::TensorRt:
      return Counterpart{"TensorRT kernels", "MIGraphX (or ONNX Runtime's MIGraphX provider)",
                         "compile the model with MIGraphX and benchmark it at the service's "
                         "batch sizes"};
    case KernelClass::ServingEngine:
      return Counterpart{"serving-engine kernels (vLLM, SGLang custom ops)",
                         "the engine's ROCm build (aiter kernels)",
                         "compare both benchmarks: the engine's ROCm build at the same model, "
                         "load and SLO"};
    case KernelClass::Cutlass:
      return Counterpart{"CUTLASS kernels from libraries", "Composable Kernel, hipBLASLt",
                         "compare their time"};
    case KernelClass::Memory:
      return Counterpart{"memory copies and fills", "HIP copies",
                         "compare host–device transfer time"};
    case KernelClass::Unknown:
      break;
  }
  return std::nullopt;
}

constexpr std::string_view k_bench_step =
    "run gpuport bench against both deployments at the same load and SLO, and gpuport profile "
    "on a trace of the AMD run (rocprofv3 or PyTorch's profiler)";

}  // namespace

MeasurePlan plan_measurements(const std::vector<TraceClassTime>& class_time,
                              const std::vector<AuditKernel>& kernels, double threshold) {
  MeasurePlan plan;
  plan.first = std::string(k_bench_step);
  if (class_time.empty()) {
    plan.largest_risk =
        "No trace: which code is hot is unknown, and library and framework time (GEMMs, "
        "attention, collectives) is priced at zero. Profile the serving path (gpuport profile) "
        "and benchmark both deployments (gpuport bench) before committing";
    return plan;
  }
  // Library time per class: the class's time less the team's own code in it; the largest share
  // over the traces.
  std::map<KernelClass, double> share;
  for (const TraceClassTime& trace : class_time) {
    for (const ClassTime& entry : trace.classes) {
      if (trace.gpu_ns <= 0) {
        continue;
      }
      const double library = static_cast<double>(entry.time_ns - entry.own_code_ns) /
                             static_cast<double>(trace.gpu_ns);
      share[entry.klass] = std::max(share[entry.klass], library);
    }
  }
  for (const auto& [klass, fraction] : share) {
    const auto known = counterpart(klass);
    if (!known || fraction < threshold) {
      continue;
    }
    MeasureStep step;
    step.klass = klass;
    step.what = std::string(known->what);
    step.share = fraction;
    step.amd_counterpart = std::string(known->amd);
    step.how = std::string(known->how);
    for (const AuditKernel& kernel : kernels) {  // hottest first
      if (kernel.klass == klass && !kernel.own_code) {
        step.anchor = kernel.anchor;
        break;
      }
    }
    plan.steps.push_back(std::move(step));
  }
  std::stable_sort(plan.steps.begin(), plan.steps.end(),
                   [](const MeasureStep& a, const MeasureStep& b) { return a.share > b.share; });
  if (plan.steps.empty()) {
    plan.largest_risk =
        "No library or framework work reaches the hot threshold: the hot path is the team's own "
        "code, which the estimate prices";
    return plan;
  }
  const MeasureStep& top = plan.steps.front();
  plan.largest_risk = fmt::format(
      "{:.1f}% of GPU time is in {}, priced at zero because {} is AMD's to tune: if it is "
      "slower on AMD, no engineering in this estimate recovers it. Measure it before "
      "committing",
      top.share * 100, top.what, top.amd_counterpart);
  return plan;
}

}  // namespace gpuport
