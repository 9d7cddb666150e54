// Classifies #if conditions as HIP-only, CUDA-only or neutral, for the C/C++/CUDA lexer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lex/token.h"

namespace gpuport {

// How the classifier decides
// --------------------------
// A condition is evaluated, without recursion or heap allocation, as a preprocessor expression
// in four "worlds" at once, with three-valued logic (true, false, unknown):
//
//   Amd         HIP on AMD (device pass): every HIP macro is defined, no CUDA macro is.
//   Host        a plain host compiler: no HIP macro, no CUDA macro.
//   CudaHost    nvcc's host pass: __CUDACC__, __NVCC__, __CUDA_ARCH_LIST__ defined.
//   CudaDevice  nvcc's device pass: the above plus __CUDA_ARCH__ (__CUDACC_RTC__ maybe).
//
// Any other identifier has an unknown value (and an unknown `defined`). A branch is
//   Hip         when it may be taken on Amd and is never taken in the three other worlds;
//   CudaDevice  when it is never taken on Amd and may be taken in another world;
//   Neutral     otherwise (both platforms, or dead code such as `#if 0`).
//
// This yields the rules the scanner relies on:
//   #ifdef __HIP_PLATFORM_AMD__, #if defined(USE_ROCM), #if GGML_USE_HIP, #ifdef __gfx942__  Hip
//   #ifndef USE_ROCM, #if !defined(__HIP_PLATFORM_AMD__), #if !__HIPCC__          CudaDevice
//   #ifdef __CUDA_ARCH__, #if __CUDA_ARCH__ >= 800, #ifdef __CUDACC__               CudaDevice
//   #ifndef __CUDA_ARCH__ (host code, compiled for both platforms)                  Neutral
//   #if defined(__CUDACC__) || defined(__HIPCC__) (both platforms)                  Neutral
//   #if defined(__CUDA_ARCH__) && !defined(USE_ROCM)                                CudaDevice
//   #if defined(USE_ROCM) || defined(OTHER) (OTHER may hold on CUDA)                Neutral
//   #if 0, #if 1, #if CUDA_VERSION >= 12000, #ifdef __HIP_PLATFORM_NVIDIA__          Neutral
//
// #elif and #else are classified by when they are taken: "no earlier branch and this
// condition" (ConditionalChain). So the #else of a HIP branch is CudaDevice and the #else of
// `#ifndef USE_ROCM` is Hip, but the #else of `#ifdef __CUDA_ARCH__` is Neutral: host code is
// compiled for AMD and NVIDIA alike. Likewise a neutral #elif after a Hip branch is CudaDevice,
// and a neutral #elif after a CudaDevice branch stays Neutral.
//
// HIP macros: __HIP_PLATFORM_AMD__, __HIP_PLATFORM_HCC__, __HIPCC__, __HIP__,
// __HIP_DEVICE_COMPILE__, USE_ROCM, the AMD arch macros __gfx<...>__ and __GFX<n>__, and any
// name whose underscore-separated segments include HIP, ROCM or AMDGCN (GGML_USE_HIP, BNB_HIP,
// IS_HIP_EXTENSION, USE_ROCM_KERNELS), but not CHIP or SHIPPED. A name that also has a NVIDIA or
// NVCC segment (__HIP_PLATFORM_NVIDIA__: HIP on NVIDIA) is not a HIP macro.
// CUDA macros: __CUDA_ARCH__, __CUDACC__, __NVCC__, __CUDA_ARCH_LIST__, __CUDACC_RTC__.
//
// A condition the evaluator cannot parse (or one nested deeper than its fixed stacks) is
// unknown in every world, hence Neutral.

enum class PlatformMacro : std::uint8_t {
  None,
  Hip,           // defined only when compiling for AMD
  CudaArch,      // __CUDA_ARCH__: nvcc device pass
  CudaCompiler,  // __CUDACC__, __NVCC__, __CUDA_ARCH_LIST__: both nvcc passes
  CudaRtc,       // __CUDACC_RTC__: NVRTC (device code), unknown under nvcc
};

PlatformMacro classify_platform_macro(std::string_view name);

enum class Truth : std::uint8_t { False, True, Unknown };

enum class World : std::uint8_t { Amd, Host, CudaHost, CudaDevice };
inline constexpr std::size_t k_world_count = 4;

// Whether a condition (or a branch) holds in each world, indexed by World.
struct WorldTruth {
  std::array<Truth, k_world_count> value{Truth::Unknown, Truth::Unknown, Truth::Unknown,
                                         Truth::Unknown};

  Truth operator[](World world) const { return value[static_cast<std::size_t>(world)]; }
  static WorldTruth all(Truth truth) { return {{truth, truth, truth, truth}}; }
};

// `directive_name` is "if", "ifdef", "ifndef", "elif", "elifdef" or "elifndef" (any other name
// is read like "if"); `condition_text` is the rest of the directive, comments and
// backslash-newline continuations included.
WorldTruth evaluate_condition(std::string_view directive_name, std::string_view condition_text);

// The branch class of a branch that is taken exactly where `taken` says.
BranchContext classify_branch(const WorldTruth& taken);

// Shorthand: the class of the first branch of `#<directive_name> <condition_text>`.
BranchContext classify_condition(std::string_view directive_name, std::string_view condition_text);

// Tracks one #if ... #elif ... #else ... #endif chain, so that each branch is classified by
// "no earlier branch was taken, and this condition holds".
class ConditionalChain {
 public:
  // Starts the chain with the #if condition; returns the class of its branch.
  BranchContext begin(const WorldTruth& condition);
  // An #elif with `condition`; returns the class of its branch.
  BranchContext next(const WorldTruth& condition);
  // The #else; returns the class of its branch.
  BranchContext otherwise();

 private:
  WorldTruth m_none_taken = WorldTruth::all(Truth::True);
};

}  // namespace gpuport
