// pybind11 module for serving_ext: exposes the fused kernels and the cuBLAS linear to Python.
#include <torch/extension.h>

#include "cpu_features.h"
#include "ops.h"

namespace {

std::string build_info() {
  std::string info = "serving_ext";
#ifdef __CUDA_ARCH_LIST__
  info += " (device code built for a fixed arch list)";
#endif
  info += serving::host_has_avx2() ? ", host avx2" : ", host generic";
  return info;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "Fused inference kernels for the serving stack";
  m.def("rms_norm", &serving::rms_norm, "RMSNorm over the last dimension", py::arg("x"),
        py::arg("weight"), py::arg("eps") = 1e-6);
  m.def("masked_softmax", &serving::masked_softmax, "Row softmax with additive mask",
        py::arg("scores"), py::arg("mask"));
  m.def("dequant_int4", &serving::dequant_int4,
        "int4 -> bf16 dequantization (inline asm fast path on sm_80 and newer)", py::arg("packed"),
        py::arg("scales"), py::arg("group") = 128);
  m.def("rotary_embedding", &serving::rotary_embedding, "In-place rotary embedding of q and k",
        py::arg("q"), py::arg("k"), py::arg("positions"), py::arg("cos_sin_cache"));
  m.def("linear_bf16", &serving::linear_bf16, "bf16 linear layer via cublasGemmEx", py::arg("x"),
        py::arg("w"));
  m.def("build_info", &build_info, "Compiler and host feature summary");
  m.attr("host_avx512") = serving::host_has_avx512f();
}
