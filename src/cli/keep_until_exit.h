// Hands a large value to the end of the process instead of destroying it: the kernel takes back
// its pages at exit far faster than free() takes back a big scan's millions of small strings
// (freeing took a fifth of a second in a perf profile of the 220 MB benchmark tree). Compilers
// do the same (clang's -disable-free).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuport {

template <typename T>
void keep_until_exit(T&& value) {
  // Reachable from a static, so leak checkers do not count it; never destroyed.
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

}  // namespace gpuport
