// Host CPU feature probe, used to pick the weight-repacking path when checkpoints are loaded.
#pragma once

#include <cstdint>

namespace serving {

#if defined(__x86_64__) || defined(__i386__)
// cpuid leaf 7, sub-leaf 0: EBX bit 5 is AVX2, bit 16 is AVX-512F.
inline void host_cpuid(uint32_t leaf, uint32_t sub, uint32_t regs[4]) {
  uint32_t a = leaf, b = 0, c = sub, d = 0;
  __asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
  regs[0] = a;
  regs[1] = b;
  regs[2] = c;
  regs[3] = d;
}

inline bool host_has_avx2() {
  uint32_t r[4];
  host_cpuid(7, 0, r);
  return (r[1] >> 5) & 1u;
}

inline bool host_has_avx512f() {
  uint32_t r[4];
  host_cpuid(7, 0, r);
  return (r[1] >> 16) & 1u;
}
#else
inline bool host_has_avx2() {
  return false;
}
inline bool host_has_avx512f() {
  return false;
}
#endif

}  // namespace serving
