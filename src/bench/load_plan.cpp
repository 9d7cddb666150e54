// The arrival schedule. n gaps are drawn, summed into absolute offsets (the first arrival at 0)
// and rescaled so the n arrivals span exactly n / rate, as vLLM's scheduler does: the achieved
// mean rate of a run is then the requested one, not one drawn with the sampling error of a sum
// of random gaps (±3 % over 1000 Poisson arrivals).
#include "bench/load_plan.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace gpuport {

namespace {

// Beyond this a schedule would not fit in memory; longer plans are cut here.
constexpr std::uint64_t k_max_arrivals = 50'000'000;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed) {
    for (auto& word : s_) {
      word = splitmix64(seed);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  // Uniform in (0, 1]: never 0, so log() is finite.
  double uniform() { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }
  double standard_normal() {
    // Box-Muller, one value per call; the second is dropped to keep the state simple.
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    return radius * std::cos(2.0 * std::numbers::pi * uniform());
  }
  // Gamma(shape, 1) by Marsaglia and Tsang; shape < 1 through Gamma(shape + 1) × U^(1/shape).
  double gamma(double shape) {
    if (shape < 1.0) {
      return gamma(shape + 1.0) * std::pow(uniform(), 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    while (true) {
      double x = 0;
      double v = 0;
      do {
        x = standard_normal();
        v = 1.0 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const double u = uniform();
      if (u < 1.0 - 0.0331 * x * x * x * x ||
          std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) {
        return d * v;
      }
    }
  }

 private:
  std::uint64_t s_[4];
};

}  // namespace

std::vector<std::int64_t> arrival_offsets_ns(Arrival arrival, double rate, double burstiness,
                                             std::uint64_t seed, std::uint64_t count,
                                             std::int64_t horizon_ns) {
  std::vector<std::int64_t> offsets;
  if (!(rate > 0) || !std::isfinite(rate) || (count == 0 && horizon_ns <= 0)) {
    return offsets;
  }
  double n = static_cast<double>(count);
  if (count == 0) {
    n = std::ceil(rate * static_cast<double>(horizon_ns) / 1e9 - 1e-9);
  }
  const auto arrivals =
      static_cast<std::uint64_t>(std::min(n, static_cast<double>(k_max_arrivals)));
  offsets.reserve(arrivals);
  const double span_ns = static_cast<double>(arrivals) / rate * 1e9;
  if (arrival == Arrival::constant) {
    for (std::uint64_t i = 0; i < arrivals; ++i) {
      offsets.push_back(std::llround(static_cast<double>(i) * 1e9 / rate));
    }
  } else {
    const bool gamma = arrival == Arrival::gamma && burstiness > 0 && std::isfinite(burstiness) &&
                       burstiness != 1.0;
    Xoshiro256 random(seed);
    std::vector<double> at(arrivals + 1, 0.0);
    for (std::uint64_t i = 1; i <= arrivals; ++i) {
      // Poisson: exponential gaps. Gamma: shape b, mean 1 before rescaling (vLLM's definition).
      const double gap =
          gamma ? random.gamma(burstiness) / burstiness : -std::log(random.uniform());
      at[i] = at[i - 1] + gap;
    }
    const double scale = at[arrivals] > 0 ? span_ns / at[arrivals] : 0.0;
    for (std::uint64_t i = 0; i < arrivals; ++i) {
      offsets.push_back(std::llround(at[i] * scale));
    }
  }
  if (count == 0) {
    offsets.erase(std::lower_bound(offsets.begin(), offsets.end(), horizon_ns), offsets.end());
  }
  return offsets;
}

}  // namespace gpuport
