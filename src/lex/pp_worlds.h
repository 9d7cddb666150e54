// The compilation worlds the preprocessor view evaluates every #if in, and what each one
// predefines: nvcc's host and device passes, hipcc's, and the plain host compilers beside them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpuport {

// A world is one compiler pass with one set of predefined macros. The CUDA build is its host
// compiler and nvcc's host and device passes; the AMD build is its host compiler (with HIP's
// platform macros) and hipcc's host and device passes. `__CUDA_ARCH__` is a range: one device
// world with an unknown architecture (so `__CUDA_ARCH__ == 750` is never decided false), and
// four with a known one (so `__CUDA_ARCH__ >= 800` is compiled for some). The AMD side has a
// device world with an unknown gfx target and four with a known one, wave64 and wave32.
enum class World : std::uint8_t {
  Host,        // the CUDA build's host compiler (.cpp files): no CUDA or HIP compiler macro
  CudaHost,    // nvcc, host pass
  CudaDevice,  // nvcc, device pass, architecture unknown
  CudaSm70,    // nvcc, device pass, __CUDA_ARCH__ == 700
  CudaSm80,    // 800
  CudaSm90,    // 900
  CudaSm100,   // 1000
  AmdHost,     // the AMD build's host compiler: __HIP_PLATFORM_AMD__ from HIP's headers
  AmdHipHost,  // hipcc, host pass
  AmdDevice,   // hipcc, device pass, gfx target unknown
  AmdGfx90a,   // CDNA2, wave64
  AmdGfx942,   // CDNA3, wave64
  AmdGfx1100,  // RDNA3, wave32
  AmdGfx1201,  // RDNA4, wave32
};
inline constexpr std::size_t k_world_count = 14;

// A set of worlds, one bit per World.
using WorldMask = std::uint16_t;
inline constexpr WorldMask world_bit(World world) {
  return static_cast<WorldMask>(1u << static_cast<unsigned>(world));
}
inline constexpr WorldMask k_all_worlds = (1u << k_world_count) - 1;
inline constexpr WorldMask k_amd_worlds =
    world_bit(World::AmdHost) | world_bit(World::AmdHipHost) | world_bit(World::AmdDevice) |
    world_bit(World::AmdGfx90a) | world_bit(World::AmdGfx942) | world_bit(World::AmdGfx1100) |
    world_bit(World::AmdGfx1201);
// The CUDA build: its host compiler and nvcc's passes.
inline constexpr WorldMask k_cuda_worlds = k_all_worlds & ~k_amd_worlds;

// Which build's macros (those a build file sets with -D) a world sees.
enum class BuildSide : std::uint8_t { Cuda, Amd };
inline constexpr BuildSide build_side(World world) {
  return (world_bit(world) & k_amd_worlds) != 0 ? BuildSide::Amd : BuildSide::Cuda;
}

// A macro's value in one world, before anything the project itself defines.
struct PlatformValue {
  enum class Kind : std::uint8_t {
    Undefined,  // not defined
    Value,      // defined as the integer `value`
    Nonzero,    // defined, a non-zero value not known (a version, an architecture list)
    Unknown,    // may or may not be defined
  };
  Kind kind = Kind::Unknown;
  std::int64_t value = 0;
};

// What a name is to the compilers, decided once per name.
enum class PlatformMacro : std::uint8_t {
  None,          // not a platform macro: its value is the project's or unknown
  CudaCompiler,  // __CUDACC__, __NVCC__: every nvcc pass
  CudaArchList,  // __CUDA_ARCH_LIST__
  CudaArch,      // __CUDA_ARCH__: nvcc's device passes
  CudaRtc,       // __CUDACC_RTC__: NVRTC, perhaps, in a device pass
  CudaVersion,   // CUDA_VERSION, CUDART_VERSION, __CUDACC_VER_*: the CUDA headers and nvcc
  HipOnNvidia,   // __HIP_PLATFORM_NVIDIA__: HIP on an NVIDIA GPU, perhaps, in the CUDA build
  HipCompiler,   // __HIPCC__, __HIP__: hipcc's passes
  HipPlatform,   // __HIP_PLATFORM_AMD__, __HIP_PLATFORM_HCC__: every AMD world
  HipDevice,     // __HIP_DEVICE_COMPILE__, __AMDGCN__, __AMDGPU__: hipcc's device passes
  HipVersion,    // HIP_VERSION, HIP_VERSION_MAJOR/MINOR/PATCH: every AMD world
  HipArchHas,    // __HIP_ARCH_HAS_*__: a device pass, value by target
  AmdArch,       // __gfx942__, __GFX9__: a device pass for that target
  Wavefront,     // __AMDGCN_WAVEFRONT_SIZE(__): 64 or 32 by target
  HipSwitch,     // a project macro named for HIP (GGML_USE_HIP, USE_ROCM, BNB_HIP): the AMD build
  Literal,       // true, false
};

PlatformMacro classify_platform_macro(std::string_view name);

// A macro only the AMD build defines (a HIP compiler, platform, target or switch macro).
inline bool is_hip_macro(PlatformMacro kind) {
  switch (kind) {
    case PlatformMacro::HipCompiler:
    case PlatformMacro::HipPlatform:
    case PlatformMacro::HipDevice:
    case PlatformMacro::HipVersion:
    case PlatformMacro::HipArchHas:
    case PlatformMacro::AmdArch:
    case PlatformMacro::Wavefront:
    case PlatformMacro::HipSwitch:
      return true;
    default:
      return false;
  }
}

// The value of `name` in `world` by the compilers alone; `kind` is classify_platform_macro(name)
// (passed in so that callers classify a name once).
PlatformValue platform_value(std::string_view name, PlatformMacro kind, World world);

}  // namespace gpuport
