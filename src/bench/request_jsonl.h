// One JSON object per request (--requests-jsonl FILE), for exact re-analysis of a run: times in
// ms from the start of the run's level, the derived latencies, status, error and token counts.
#pragma once

#include <string>

#include "bench/request_record.h"

namespace gpuport {

// One line, ending in '\n'. `load` is the level's concurrency or rate.
std::string request_jsonl_line(const RequestRecord& record, double load);

}  // namespace gpuport
