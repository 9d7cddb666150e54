// Targets that depend on the call an identifier is an argument of. Before ROCm 6.0 a CUDA data
// type (CUDA_R_16F) or cuBLAS compute type passed to a cuBLAS call becomes hipBLAS 5.x's
// hipblasDatatype_t (HIPBLAS_R_16F), which its *Ex functions took. cuSOLVER takes cuBLAS's
// enums (cublasOperation_t, cublasFillMode_t, cublasSideMode_t), but hipSOLVER has its own
// (HIPSOLVER_OP_N, ...), so `CUBLAS_OP_N` becomes HIPSOLVER_OP_N inside a cusolver call and
// HIPBLAS_OP_N elsewhere. Under --roc, an enum passed to a call that has no roc* form (and so
// stays hip*) keeps its hip* spelling, and a CUDA data type passed to a call that becomes a roc
// function taking rocblas_datatype becomes its rocblas_datatype name (CUDA_R_16F ->
// rocblas_datatype_f16_r; value_types.h). Only visible calls count: an enum stored in a variable
// first is translated by the table alone.
#pragma once

#include <cstddef>
#include <string_view>

#include "hipify/file_translation.h"

namespace gpuport {

// The identifier token of the call whose argument list holds token `index` (the nearest
// unclosed `(` after an identifier, within the statement); k_no_token when there is none.
std::size_t enclosing_call(const TokenStream& ts, std::size_t index);

// The target for the table entry at token `index` when its call context decides it; empty when
// the table's own target applies. The returned view has static storage duration.
std::string_view contextual_target(const FileTranslation& ft, std::size_t index,
                                   const Mapping& entry);

}  // namespace gpuport
