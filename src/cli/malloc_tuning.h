// glibc's malloc defaults suit long-lived servers. A scan is one process that allocates a
// hundred megabytes of small pieces and keeps most of it until it exits; for it the defaults
// only add page faults: each allocation above 128 KiB (a token buffer growing) is a fresh
// mapping, and memory freed at the top of a heap goes back to the kernel and faults in again
// on the next allocation. A page fault is dear on a virtual machine, where it traps to the
// hypervisor. These settings are also what lets the scan map heap pages ahead of its workers'
// allocations (scan/heap_prefault.h).
#pragma once

#include <malloc.h>

namespace gpuport {

// True when glibc took both settings: only then does mapping heap pages ahead of use pay
// (ScanOptions::prefault_heap).
[[nodiscard]] inline bool tune_malloc_for_one_shot_command() {
  // 32 MiB is the largest threshold glibc accepts (half its per-thread heap size).
  const bool mmap_set = ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024) == 1;
  const bool trim_set = ::mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024) == 1;
  return mmap_set && trim_set;
}

}  // namespace gpuport
