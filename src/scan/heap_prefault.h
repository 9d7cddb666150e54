// Maps heap pages ahead of a scan worker's allocations, a few MiB per system call.
//
// On a virtual machine the first write to each new 4 KiB page traps to the hypervisor, and a
// scan writes its whole result (about half the size of the sources it reads) to new pages:
// measured on the 220 MB benchmark tree, that was about a fifth of the scan's CPU time. Mapping
// the pages in bulk (madvise MADV_POPULATE_WRITE) costs much less per page than a fault each.
//
// The worker allocates a chunk, maps it and frees it again. The chunk comes from the top of the
// worker's malloc heap, and after free() it is the top again, so the small allocations that
// follow are carved out of pages already mapped. That holds while malloc neither serves the
// chunk with mmap nor hands freed memory back to the kernel: the process must have raised
// glibc's mmap and trim thresholds above the chunk (the CLI does, see cli/malloc_tuning.h).
// Otherwise the chunk is mapped in vain: the scan's result is the same, only slower.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuport {

// Maps the whole pages inside [data, data + size) for writing, as transparent huge pages where
// the range holds whole 2 MiB blocks and the kernel allows them. False when the kernel cannot
// (MADV_POPULATE_WRITE needs Linux 5.14); the pages then fault in one by one when written.
bool populate_for_writing(void* data, std::size_t size);

class HeapPrefault {
 public:
  static constexpr std::uint64_t k_default_every = 4 * 1024 * 1024;
  static constexpr std::size_t k_default_chunk = 4 * 1024 * 1024;

  // One chunk of `chunk_bytes` per `every_bytes` of source analysed. A chunk that was not used
  // up is the top of the heap again at the next round, so the pages mapped ahead of use stay
  // about one chunk per worker.
  explicit HeapPrefault(std::uint64_t every_bytes = k_default_every,
                        std::size_t chunk_bytes = k_default_chunk)
      : m_every(every_bytes), m_chunk(chunk_bytes) {}

  // After a file of `bytes` bytes; true when it mapped a chunk.
  bool after_file(std::uint64_t bytes);

 private:
  std::uint64_t m_every;
  std::size_t m_chunk;
  std::uint64_t m_since = 0;
};

}  // namespace gpuport
