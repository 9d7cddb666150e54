// See heap_prefault.h for why a scan maps heap pages ahead of use.
#include "scan/heap_prefault.h"

#include <sys/mman.h>

#include <cstdlib>

namespace gpuport {

bool populate_for_writing(void* data, std::size_t size) {
  constexpr std::uintptr_t k_page = 4096;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + k_page - 1) & ~(k_page - 1);
  const std::uintptr_t last = (begin + size) & ~(k_page - 1);
  if (last <= first) {
    return true;
  }
  // Where transparent huge pages are on "madvise" (Debian's default), ask for them on the
  // whole 2 MiB blocks: one fault maps 2 MiB instead of 4 KiB. A no-op where they are off.
  constexpr std::uintptr_t k_huge = 2 * 1024 * 1024;
  const std::uintptr_t huge_first = (first + k_huge - 1) & ~(k_huge - 1);
  const std::uintptr_t huge_last = last & ~(k_huge - 1);
  if (huge_last > huge_first) {
    ::madvise(reinterpret_cast<void*>(huge_first), huge_last - huge_first, MADV_HUGEPAGE);
  }
  return ::madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE) == 0;
}

bool HeapPrefault::after_file(std::uint64_t bytes) {
  m_since += bytes;
  if (m_every == 0 || m_since < m_every) {
    return false;
  }
  m_since = 0;
  void* chunk = std::malloc(m_chunk);
  if (chunk == nullptr) {
    return false;
  }
  populate_for_writing(chunk, m_chunk);
  std::free(chunk);
  return true;
}

}  // namespace gpuport
