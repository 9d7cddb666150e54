// The cost model: dollars per million requests on each platform at the same throughput SLO, the
// monthly delta, the porting cost and its payback, and the AMD throughput ratios at which the
// move breaks even. docs/estimate-model.md gives each formula.
#pragma once

#include <optional>

#include "audit/audit_result.h"
#include "audit/config.h"

namespace gpuport {

// price_per_hour × gpus / (throughput_rps × 3600) × 1e6. Throughput must be > 0.
double cost_per_million(double price_per_hour, double gpus, double throughput_rps);

// The likely porting cost over the monthly saving; none when there is no saving (delta <= 0).
std::optional<double> payback_months(double porting_cost, double monthly_delta);

// AMD throughput / NVIDIA throughput at which AMD's cost per request equals NVIDIA's:
// (P_amd × G_amd) / (P_nvidia × G_nvidia).
double break_even_ratio(const PlatformConfig& nvidia, const PlatformConfig& amd);

// The ratio at which the monthly saving pays `porting_cost` back in exactly `horizon_months`:
// M × P_amd × G_amd / (T_nvidia × 3600 × (C_nvidia − porting_cost / horizon)), where C_nvidia is
// NVIDIA's monthly cost. None when even a free AMD fleet could not (C_nvidia <= cost / horizon).
std::optional<double> payback_ratio(const PlatformConfig& nvidia, const PlatformConfig& amd,
                                    double monthly_requests, double porting_cost,
                                    double horizon_months);

// Everything above for the config, with `effort` (engineer-days) priced at the day rate.
CostSummary estimate_cost(const CostConfig& config, const DayRange& effort);

}  // namespace gpuport
