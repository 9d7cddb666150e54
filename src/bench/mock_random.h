// The mock server's random numbers: splitmix64, uniform in [0, 1) and standard normal
// (Box-Muller), so a seed gives the same latencies and faults with every standard library.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace gpuport {

class MockRandom {
 public:
  explicit MockRandom(std::uint64_t seed) : m_state(seed) {}

  std::uint64_t next_u64() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  double standard_normal() {
    if (m_has_spare) {
      m_has_spare = false;
      return m_spare;
    }
    const double u1 = 1.0 - uniform01();  // (0, 1]: log() stays finite
    const double u2 = uniform01();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    m_spare = radius * std::sin(2.0 * std::numbers::pi * u2);
    m_has_spare = true;
    return radius * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::uint64_t m_state;
  double m_spare = 0;
  bool m_has_spare = false;
};

}  // namespace gpuport
