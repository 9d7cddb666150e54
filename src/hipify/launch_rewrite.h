// Rewrites `k<<<g, b, s, st>>>(args)` as `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`
// (LaunchSyntax::Hip). Template kernels are wrapped in HIP_KERNEL_NAME(...).
#pragma once

#include "hipify/file_translation.h"
#include "hipify/token_walk.h"

namespace gpuport {

// Rewrites every launch in ft.launches whose kernel name, configuration and argument list can
// be delimited from the tokens; the others stay as written and are counted in
// stats.launches_not_rewritten (comments or # / ## inside the launch syntax, a configuration of
// other than 2-4 parts, a callee that is not a (qualified, templated) name, no argument list).
void rewrite_launches(FileTranslation& ft, const BracketMatch& match);

}  // namespace gpuport
