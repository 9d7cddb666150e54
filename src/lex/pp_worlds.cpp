// Platform macros: which names the compilers predefine, and their value in each world.
#include "lex/pp_worlds.h"

namespace gpuport {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// __gfx942__, __gfx90a__, __gfx1100__; the families __GFX9__, __GFX11__.
bool is_amd_arch_macro(std::string_view name) {
  if (name.size() < 8 || !name.ends_with("__")) {
    return false;
  }
  std::string_view head = name.substr(0, 5);
  return (head == "__gfx" || head == "__GFX") && is_digit(name[5]);
}

// True when `name` names the world's target: its exact __gfxNNN__ or its family __GFXn__.
bool arch_matches(std::string_view name, World world) {
  switch (world) {
    case World::AmdGfx90a:
      return name == "__gfx90a__" || name == "__GFX9__";
    case World::AmdGfx942:
      return name == "__gfx942__" || name == "__GFX9__";
    case World::AmdGfx1100:
      return name == "__gfx1100__" || name == "__GFX11__";
    case World::AmdGfx1201:
      return name == "__gfx1201__" || name == "__GFX12__";
    default:
      return false;
  }
}

// A project macro named for HIP: one of its underscore-separated segments is HIP, ROCM or
// AMDGCN (GGML_USE_HIP, BNB_HIP, USE_ROCM, IS_HIP_EXTENSION), none is NVIDIA or NVCC (HIP on
// NVIDIA), and none says the opposite (GGML_HIP_NO_VMM, DISABLE_ROCM_X). CHIP and SHIPPED are
// not segments. A name with a VERSION, MAJOR or MINOR segment (ROCM_VERSION) is a version:
// defined in the AMD build, value unknown.
PlatformMacro classify_hip_name(std::string_view name) {
  bool hip = false;
  bool version = false;
  std::size_t pos = 0;
  while (pos < name.size()) {
    std::size_t end = name.find('_', pos);
    if (end == std::string_view::npos) {
      end = name.size();
    }
    std::string_view segment = name.substr(pos, end - pos);
    if (segment == "HIP" || segment == "ROCM" || segment == "AMDGCN") {
      hip = true;
    } else if (segment == "NVIDIA" || segment == "NVCC" || segment == "NO" ||
               segment == "DISABLE" || segment == "DISABLED" || segment == "WITHOUT") {
      return PlatformMacro::None;
    } else if (segment == "VERSION" || segment == "VER" || segment == "MAJOR" ||
               segment == "MINOR" || segment == "PATCH") {
      version = true;
    }
    pos = end + 1;
  }
  if (!hip) {
    return PlatformMacro::None;
  }
  return version ? PlatformMacro::HipVersion : PlatformMacro::HipSwitch;
}

bool in(World world, WorldMask mask) {
  return (world_bit(world) & mask) != 0;
}

constexpr WorldMask k_nvcc_worlds = k_cuda_worlds & ~world_bit(World::Host);
constexpr WorldMask k_cuda_device_worlds = world_bit(World::CudaDevice) |
                                           world_bit(World::CudaSm70) | world_bit(World::CudaSm80) |
                                           world_bit(World::CudaSm90) | world_bit(World::CudaSm100);
constexpr WorldMask k_amd_device_worlds =
    world_bit(World::AmdDevice) | world_bit(World::AmdGfx90a) | world_bit(World::AmdGfx942) |
    world_bit(World::AmdGfx1100) | world_bit(World::AmdGfx1201);
constexpr WorldMask k_hipcc_worlds = k_amd_device_worlds | world_bit(World::AmdHipHost);

PlatformValue undefined() {
  return {PlatformValue::Kind::Undefined, 0};
}
PlatformValue value(std::int64_t n) {
  return {PlatformValue::Kind::Value, n};
}
PlatformValue nonzero() {
  return {PlatformValue::Kind::Nonzero, 0};
}
PlatformValue unknown() {
  return {PlatformValue::Kind::Unknown, 0};
}

std::int64_t cuda_arch_of(World world) {
  switch (world) {
    case World::CudaSm70:
      return 700;
    case World::CudaSm80:
      return 800;
    case World::CudaSm90:
      return 900;
    case World::CudaSm100:
      return 1000;
    default:
      return 0;
  }
}

}  // namespace

PlatformMacro classify_platform_macro(std::string_view name) {
  if (name == "true" || name == "false") {
    return PlatformMacro::Literal;
  }
  if (name.size() < 3 || name.size() > 128) {
    return PlatformMacro::None;
  }
  if (name == "__CUDA_ARCH__") {
    return PlatformMacro::CudaArch;
  }
  if (name == "__CUDACC__" || name == "__NVCC__") {
    return PlatformMacro::CudaCompiler;
  }
  if (name == "__CUDA_ARCH_LIST__") {
    return PlatformMacro::CudaArchList;
  }
  if (name == "__CUDACC_RTC__") {
    return PlatformMacro::CudaRtc;
  }
  if (name == "CUDA_VERSION" || name == "CUDART_VERSION" || name == "__CUDACC_VER_MAJOR__" ||
      name == "__CUDACC_VER_MINOR__" || name == "__CUDACC_VER_BUILD__") {
    return PlatformMacro::CudaVersion;
  }
  if (name == "__HIP_PLATFORM_NVIDIA__" || name == "__HIP_PLATFORM_NVCC__") {
    return PlatformMacro::HipOnNvidia;
  }
  if (name == "__HIPCC__" || name == "__HIP__") {
    return PlatformMacro::HipCompiler;
  }
  if (name == "__HIP_PLATFORM_AMD__" || name == "__HIP_PLATFORM_HCC__") {
    return PlatformMacro::HipPlatform;
  }
  if (name == "__HIP_DEVICE_COMPILE__" || name == "__AMDGCN__" || name == "__AMDGPU__") {
    return PlatformMacro::HipDevice;
  }
  if (name == "HIP_VERSION" || name == "HIP_VERSION_MAJOR" || name == "HIP_VERSION_MINOR" ||
      name == "HIP_VERSION_PATCH") {
    return PlatformMacro::HipVersion;
  }
  if (name.starts_with("__HIP_ARCH_HAS_") && name.ends_with("__")) {
    return PlatformMacro::HipArchHas;
  }
  if (name == "__AMDGCN_WAVEFRONT_SIZE" || name == "__AMDGCN_WAVEFRONT_SIZE__") {
    return PlatformMacro::Wavefront;
  }
  if (is_amd_arch_macro(name)) {
    return PlatformMacro::AmdArch;
  }
  return classify_hip_name(name);
}

PlatformValue platform_value(std::string_view name, PlatformMacro kind, World world) {
  switch (kind) {
    case PlatformMacro::None:
      return unknown();
    case PlatformMacro::Literal:
      return value(name == "true" ? 1 : 0);
    case PlatformMacro::CudaCompiler:
      return in(world, k_nvcc_worlds) ? value(1) : undefined();
    case PlatformMacro::CudaArchList:
      return in(world, k_nvcc_worlds) ? nonzero() : undefined();
    case PlatformMacro::CudaArch:
      if (world == World::CudaDevice) {
        return nonzero();
      }
      return in(world, k_cuda_device_worlds) ? value(cuda_arch_of(world)) : undefined();
    case PlatformMacro::CudaRtc:
      return world == World::CudaDevice ? unknown() : undefined();
    case PlatformMacro::CudaVersion:
      if (in(world, k_nvcc_worlds)) {
        return nonzero();
      }
      return world == World::Host ? unknown() : undefined();
    case PlatformMacro::HipOnNvidia:
      return in(world, k_cuda_worlds) ? unknown() : undefined();
    case PlatformMacro::HipCompiler:
      return in(world, k_hipcc_worlds) ? value(1) : undefined();
    case PlatformMacro::HipPlatform:
    case PlatformMacro::HipSwitch:
      return in(world, k_amd_worlds) ? value(1) : undefined();
    case PlatformMacro::HipDevice:
      return in(world, k_amd_device_worlds) ? value(1) : undefined();
    case PlatformMacro::HipVersion:
      return in(world, k_amd_worlds) ? nonzero() : undefined();
    case PlatformMacro::HipArchHas:
      return in(world, k_amd_device_worlds) ? unknown() : undefined();
    case PlatformMacro::AmdArch:
      if (world == World::AmdDevice) {
        return unknown();
      }
      return arch_matches(name, world) ? value(1) : undefined();
    case PlatformMacro::Wavefront:
      if (world == World::AmdDevice) {
        return nonzero();
      }
      if (world == World::AmdGfx90a || world == World::AmdGfx942) {
        return value(64);
      }
      return world == World::AmdGfx1100 || world == World::AmdGfx1201 ? value(32) : undefined();
  }
  return unknown();
}

}  // namespace gpuport
