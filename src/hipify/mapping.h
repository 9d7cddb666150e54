// The CUDA -> HIP mapping tables: one entry per CUDA identifier or header the translator knows.
// The entries are generated (scripts/generate_hipify_tables.py) from the CUDA headers and the
// HIP/ROCm headers installed on the machine, plus documented rule files for libraries whose HIP
// headers are not packaged; see docs/hipify-tables.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpuport {

enum class ApiFamily : std::uint8_t {
  Runtime,            // cudaMalloc, cudaStream_t, cudaErrorInvalidValue
  Driver,             // cuMemAlloc, CUresult, CU_DEVICE_ATTRIBUTE_*
  DeviceFunction,     // __shfl_sync, __ldg, atomicAdd (same names in HIP: counted, or warned)
  DeviceType,         // dim3, float4 (vector_types.h)
  Complex,            // cuComplex.h
  Fp16,               // cuda_fp16.h: __half, __half2
  Bf16,               // cuda_bf16.h: __nv_bfloat16 -> __hip_bfloat16 (functions keep names)
  Fp8,                // cuda_fp8.h (also fp6/fp4): every use is flagged, whatever its Support,
                      // because MI300's FNUZ formats differ from CUDA's OCP ones
  CooperativeGroups,  // cooperative_groups
  Blas,               // cuBLAS -> hipBLAS / rocBLAS
  BlasLt,             // cuBLASLt -> hipBLASLt
  Rand,               // cuRAND -> hipRAND / rocRAND
  Fft,                // cuFFT -> hipFFT / rocFFT
  Sparse,             // cuSPARSE -> hipSPARSE / rocSPARSE
  Solver,             // cuSOLVER -> hipSOLVER / rocSOLVER
  Dnn,                // cuDNN -> MIOpen (where names correspond)
  Nccl,               // NCCL -> RCCL
  Cub,                // CUB -> hipCUB
  Thrust,             // Thrust (rocThrust keeps the names)
  Nvtx,               // NVTX -> roctx
  Rtc,                // NVRTC -> hipRTC
  Nvml,               // NVML -> ROCm SMI
  MathConstant,       // math_constants.h: CUDART_PI_F -> HIP_PI_F (hip_math_constants.h, 6.0+)
  Header,             // #include paths
};
inline constexpr std::size_t k_api_family_count = static_cast<std::size_t>(ApiFamily::Header) + 1;

// Condition: a macro renamed only inside #if/#ifdef/#elif conditions (`__CUDACC__`, the include
// guards helper headers test); anywhere else it is left as written.
enum class MappingKind : std::uint8_t { Function, Type, Constant, Namespace, Header, Condition };

enum class Support : std::uint8_t {
  Verified,     // the HIP name is declared by the target release's headers (the name lists)
  Documented,   // from a documented rule file; no name list of the release declares it
  Unsupported,  // no HIP equivalent: left as written and reported
};

// Status of the CUDA name itself, read from the CUDA headers (deprecation attributes, the
// removed-API list).
enum class Lifecycle : std::uint8_t { Current, Deprecated, Removed };

struct Mapping {
  std::string_view cuda;  // identifier, or include path for MappingKind::Header
  std::string_view hip;   // empty when Unsupported
  std::string_view roc;   // AMD's native library name (--roc); empty: use `hip`
  ApiFamily family = ApiFamily::Runtime;
  MappingKind kind = MappingKind::Function;
  Support support = Support::Verified;
  Lifecycle lifecycle = Lifecycle::Current;
  // The ROCm release (RocmRelease) whose headers first declare `hip`, 0 when every release of
  // the name lists does.
  std::uint16_t since = 0;
  // In a table for an older target (mapping_table_for): the release this name needs, when
  // the target lacks it. The entry is then Unsupported.
  std::uint16_t needs_rocm = 0;
  // The ROCm release from which on the headers mark `hip` deprecated (0: not deprecated at the
  // table's release). Written anyway where it is the only counterpart (HIP's context API).
  std::uint16_t hip_deprecated = 0;
  // Headers only: an entry the generator derived (what cuda_runtime.h includes, the toolkit's
  // other headers) rather than a rule named: it matches `#include <...>` only, so a project's
  // own "device_types.h" is left alone.
  bool angle_only = false;
};

// A ROCm release as major * 100 + minor: 6.2 is 602.
using RocmRelease = std::uint16_t;

// The releases the built-in tables were generated for (one name list each), oldest first.
std::span<const RocmRelease> rocm_releases();

// The number of arguments a call of cuBLAS's legacy (handle-less, cublas.h) function `cuda_name`
// passes, where cublas_v2.h makes the name a macro for the handle form, which takes another
// number (cublasSgemm: 13; cublasSgemm_v2: 14). nullopt for any other name.
std::optional<std::size_t> legacy_cublas_arguments(std::string_view cuda_name);

// The number of arguments a HIP function takes.
struct ArgumentRange {
  std::size_t fewest = 0;
  std::size_t most = 0;
  bool contains(std::size_t count) const { return fewest <= count && count <= most; }
};

// What HIP's counterpart of `cuda_name` takes where a current CUDA signature takes another number
// of arguments (the table maps the name because an older CUDA signature matches:
// cudaGraphInstantiate's five arguments are CUDA 11's, CUDA 12's call passes three). nullopt for
// every other name: their calls need no count.
std::optional<ArgumentRange> hip_argument_range(std::string_view cuda_name);

// The HIP function a call of `cuda_name` with `arguments` arguments becomes, where that differs
// from the table's (cudaGraphInstantiate with 3 -> hipGraphInstantiateWithFlags); empty otherwise.
std::string_view hip_call_form(std::string_view cuda_name, std::size_t arguments);
RocmRelease newest_rocm_release();
// "6.2" -> 602; nullopt unless MAJOR.MINOR.
std::optional<RocmRelease> parse_rocm_release(std::string_view text);
std::string rocm_release_name(RocmRelease release);  // 602 -> "6.2"
// A release the user names (--rocm, [hipify] rocm): MAJOR.MINOR between the oldest and the newest
// of rocm_releases(); nullopt otherwise, and rocm_releases_covered() says what would do.
std::optional<RocmRelease> parse_supported_rocm_release(std::string_view text);
std::string rocm_releases_covered();  // "ROCm 5.2 to 6.2"

// hipBLAS 2.0 (ROCm 6.0) declares its hipComplex/hipDataType API as `X_v2`; before it, the *Ex
// functions take hipblasDatatype_t and the complex ones hipblasComplex.
inline constexpr RocmRelease k_hipblas_v2_api_release = 600;

// An index over mapping entries. The entries must outlive the table.
class MappingTable {
 public:
  explicit MappingTable(std::span<const Mapping> entries);
  // The entry for an identifier (never a header); nullptr when the name is not a CUDA API name.
  const Mapping* find(std::string_view cuda_name) const;
  // The entry for an include path as written between <> or "" ("cuda_runtime.h").
  const Mapping* find_header(std::string_view include_path) const;
  std::span<const Mapping> entries() const { return m_entries; }

 private:
  std::span<const Mapping> m_entries;
  std::unordered_map<std::string_view, const Mapping*> m_names;
  std::unordered_map<std::string_view, const Mapping*> m_headers;
};

// The generated tables built into gpuport, for the newest release.
const MappingTable& builtin_mapping_table();

// The tables for a target release between the oldest and the newest of rocm_releases(): a
// name whose HIP spelling differs there (hipBLAS's `_v2` forms of 6.x) has that spelling, a
// name the target's headers do not declare yet is Unsupported with `needs_rocm` set. The
// newest release (or a later one, or 0) gets builtin_mapping_table(). Built once per target.
const MappingTable& mapping_table_for(RocmRelease target);

// Stable lower-case names used in statistics and JSON: "runtime", "blas", "header", ...
std::string_view api_family_name(ApiFamily family);
std::string_view support_name(Support support);        // "verified", "documented", "unsupported"
std::string_view lifecycle_name(Lifecycle lifecycle);  // "current", "deprecated", "removed"

// Families whose HIP names are the CUDA names (device functions and types, fp16, cooperative
// groups, NCCL, Thrust): a use is counted, not renamed. Bf16 keeps its function names too.
bool family_keeps_names(ApiFamily family);

}  // namespace gpuport
