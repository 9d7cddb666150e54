// The math libraries' own value types at the arguments of their calls.
//
// A cuBLAS call translated to rocBLAS or hipBLAS (cuSPARSE to rocSPARSE) passes HIP's values:
// cuComplex became hipFloatComplex, __half stays __half, CUDA_R_16F became HIP_R_16F. The
// function may take the library's own types: rocblas_float_complex, rocblas_half,
// rocblas_datatype, hipBLAS's uint16_t hipblasHalf (value_types.inc, from the parameter types of
// each release's headers). Under --roc, pointers to types of the same layout are cast to the
// parameter's type and a CUDA data-type enumerator becomes its rocblas_datatype name
// (call_context.cpp); for hipBLAS the macro that makes its types HIP's is reported; what can be
// neither is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "hipify/file_translation.h"
#include "hipify/mapping.h"
#include "hipify/token_walk.h"

namespace gpuport {

struct ValueParameter {
  std::string_view function;  // rocblas_cgemm
  std::uint8_t index = 0;     // from 0
  std::string_view type;      // const rocblas_float_complex*
  std::uint8_t count = 0;     // the parameters the function takes
  RocmRelease first = 0;      // the releases whose headers declare it so
  RocmRelease last = 0;
};

// The value-typed parameters of a rocBLAS, rocSPARSE or hipBLAS function in the target release
// (0: the newest), by index; empty for any other name.
std::vector<ValueParameter> value_parameters(std::string_view function, RocmRelease target);

// Whether `function` has value-typed parameters in any release: a look-up without building the
// list, for the rename pass.
bool has_value_parameters(std::string_view function);

// The hipblasDatatype_t enumerator hipBLAS before ROCm 6.0 takes for a CUDA data type or cuBLAS
// compute type (CUDA_R_16BF -> HIPBLAS_R_16B, CUBLAS_COMPUTE_32F -> HIPBLAS_R_32F); empty
// otherwise.
std::string_view hipblas_5_datatype_of(std::string_view cuda_name);

// What a call of hipBLAS function `hip_function` needs so that HIP's value types match its
// parameters in the target release: ROCM_MATHLIBS_API_USE_HIP_COMPLEX where it takes
// hipblasComplex (hipBLAS before 6.0), HIPBLAS_USE_HIP_HALF where it takes hipblasHalf
// (uint16_t; before 6.0 a cast). Empty when nothing; static text.
std::string_view hipblas_value_type_macro(std::string_view hip_function, RocmRelease target);

// The rocblas_datatype enumerator of a CUDA data type (CUDA_R_16F -> rocblas_datatype_f16_r)
// that the target's rocBLAS declares; empty otherwise.
std::string_view rocblas_datatype_of(std::string_view cuda_name, RocmRelease target);

// For a call recorded with ArgumentWrap::RocValueTypes: casts each pointer argument of a
// value-typed parameter, `(const rocblas_float_complex*)x`, unless it is null or already names
// the type; reports a data-type argument that is not a CUDA data-type enumerator (a hipDataType
// variable holds other numbers) and a value-typed parameter taken by value.
void cast_roc_arguments(FileTranslation& ft, const BracketMatch& match, const SymbolCall& call,
                        std::size_t open, std::size_t close);

}  // namespace gpuport
