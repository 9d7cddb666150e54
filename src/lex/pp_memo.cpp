// The shared store of header recordings.
#include "lex/pp_memo.h"

namespace gpuport {

const std::vector<std::shared_ptr<const HeaderRecording>>& HeaderMemo::find(const Key& key) const {
  static const std::vector<std::shared_ptr<const HeaderRecording>> k_none;
  auto it = m_map.find(key);
  return it == m_map.end() ? k_none : it->second;
}

void HeaderMemo::add(const Key& key, std::shared_ptr<const HeaderRecording> recording) {
  if (m_ops + recording->ops.size() > k_max_ops) {
    return;
  }
  auto& list = m_map[key];
  if (list.size() >= k_max_per_key) {
    return;
  }
  m_ops += recording->ops.size();
  list.push_back(std::move(recording));
}

std::size_t HeaderMemo::size() const {
  std::size_t count = 0;
  for (const auto& [key, list] : m_map) {
    count += list.size();
  }
  return count;
}

}  // namespace gpuport
