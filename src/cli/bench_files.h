// The bench subcommands that work on saved results: `bench compare A B` (side by side with
// ratios) and `bench merge A B ... -o OUT` (runs of several client machines, merged exactly).
#pragma once

#include "cli/command_table.h"

namespace gpuport {

int run_bench_compare(const CommandArgs& args);
int run_bench_merge(const CommandArgs& args);

}  // namespace gpuport
