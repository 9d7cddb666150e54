// `gpuport bench`: load-test an inference server (see bench_options.h for the flags), plus
// `bench compare`, `bench merge` and `bench --serve-mock`.
#pragma once

#include "cli/command_table.h"

namespace gpuport {

int run_bench_command(const CommandArgs& args);

}  // namespace gpuport
