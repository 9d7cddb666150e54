// `gpuport rules [ID]`: the rule catalog, or one rule's details.
#pragma once

#include "cli/command_table.h"

namespace gpuport {

int run_rules_command(const CommandArgs& args);

}  // namespace gpuport
