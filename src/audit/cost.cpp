// The cost formulas.
#include "audit/cost.h"

namespace gpuport {

namespace {

constexpr double k_seconds_per_hour = 3600;
constexpr double k_million = 1e6;

PlatformCost platform_cost(const PlatformConfig& config, Vendor vendor, double monthly_requests) {
  PlatformCost cost;
  cost.vendor = vendor;
  cost.gpu = config.gpu;
  cost.gpu_price_per_hour = config.gpu_price_per_hour;
  cost.gpus_per_replica = static_cast<std::uint32_t>(config.gpus_per_replica);
  cost.throughput_rps = config.throughput_rps;
  cost.throughput_assumed = config.throughput_assumed;
  cost.throughput_source = config.throughput_source;
  cost.cost_per_million =
      cost_per_million(config.gpu_price_per_hour, static_cast<double>(config.gpus_per_replica),
                       config.throughput_rps);
  cost.monthly_cost = cost.cost_per_million * monthly_requests / k_million;
  return cost;
}

}  // namespace

double cost_per_million(double price_per_hour, double gpus, double throughput_rps) {
  return price_per_hour * gpus / (throughput_rps * k_seconds_per_hour) * k_million;
}

std::optional<double> payback_months(double porting_cost, double monthly_delta) {
  if (!(monthly_delta > 0)) {
    return std::nullopt;
  }
  return porting_cost / monthly_delta;
}

double break_even_ratio(const PlatformConfig& nvidia, const PlatformConfig& amd) {
  return (amd.gpu_price_per_hour * static_cast<double>(amd.gpus_per_replica)) /
         (nvidia.gpu_price_per_hour * static_cast<double>(nvidia.gpus_per_replica));
}

std::optional<double> payback_ratio(const PlatformConfig& nvidia, const PlatformConfig& amd,
                                    double monthly_requests, double porting_cost,
                                    double horizon_months) {
  const double nvidia_monthly =
      cost_per_million(nvidia.gpu_price_per_hour, static_cast<double>(nvidia.gpus_per_replica),
                       nvidia.throughput_rps) *
      monthly_requests / k_million;
  const double affordable_amd = nvidia_monthly - porting_cost / horizon_months;
  if (!(affordable_amd > 0)) {
    return std::nullopt;
  }
  return monthly_requests * amd.gpu_price_per_hour * static_cast<double>(amd.gpus_per_replica) /
         (nvidia.throughput_rps * k_seconds_per_hour * affordable_amd);
}

CostSummary estimate_cost(const CostConfig& config, const DayRange& effort) {
  CostSummary cost;
  cost.monthly_requests = config.monthly_requests;
  cost.nvidia = platform_cost(config.nvidia, Vendor::Nvidia, config.monthly_requests);
  cost.amd = platform_cost(config.amd, Vendor::Amd, config.monthly_requests);
  cost.monthly_delta = cost.nvidia.monthly_cost - cost.amd.monthly_cost;
  cost.day_rate = config.day_rate;
  cost.porting_cost = {effort.low * config.day_rate, effort.likely * config.day_rate,
                       effort.high * config.day_rate};
  cost.payback_months = payback_months(cost.porting_cost.likely, cost.monthly_delta);
  cost.horizon_months = config.payback_horizon_months;
  cost.break_even_ratio = break_even_ratio(config.nvidia, config.amd);
  cost.payback_ratio = payback_ratio(config.nvidia, config.amd, config.monthly_requests,
                                     cost.porting_cost.likely, config.payback_horizon_months);
  return cost;
}

}  // namespace gpuport
