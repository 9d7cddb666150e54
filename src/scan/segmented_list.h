// A list kept as the vectors it was built from: one segment per scanned file.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuport {

// The scan's findings, kernels and launch sites. Each file's analysis builds one vector of
// them, and the end of the scan orders the files by path: handing those vectors over as the
// segments of one list, instead of moving ~250,000 items into one vector, takes that merge
// (20-50 ms of a 0.6 s scan) off the end of every scan, and its copy off the peak memory.
// It reads like a std::vector: size(), operator[] (a binary search over the segments' starts),
// random-access iterators (stepping is O(1); jumps search), push_back and emplace_back (onto
// the last segment). No segment is empty.
template <typename T>
class SegmentedList {
  template <bool Const>
  class Iterator;

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  SegmentedList() = default;
  SegmentedList(std::initializer_list<T> items) { append_segment(std::vector<T>(items)); }

  size_type size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  size_type segment_count() const { return m_segments.size(); }

  T& operator[](size_type index) {
    const auto [segment, offset] = locate(index);
    return m_segments[segment][offset];
  }
  const T& operator[](size_type index) const {
    const auto [segment, offset] = locate(index);
    return m_segments[segment][offset];
  }
  T& front() { return m_segments.front().front(); }
  const T& front() const { return m_segments.front().front(); }
  T& back() { return m_segments.back().back(); }
  const T& back() const { return m_segments.back().back(); }

  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, m_size); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, m_size); }

  // Room for `count` segments without reallocating the segment table.
  void reserve_segments(std::size_t count) {
    m_segments.reserve(count);
    m_starts.reserve(count);
  }

  // Adds `items` after the last item, as a segment of their own (none when `items` is empty).
  void append_segment(std::vector<T>&& items) {
    if (items.empty()) {
      return;
    }
    m_starts.push_back(m_size);
    m_size += items.size();
    m_segments.push_back(std::move(items));
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (m_segments.empty()) {
      m_starts.push_back(0);
      m_segments.emplace_back();
    }
    T& added = m_segments.back().emplace_back(std::forward<Args>(args)...);
    ++m_size;
    return added;
  }
  void push_back(const T& item) { emplace_back(item); }
  void push_back(T&& item) { emplace_back(std::move(item)); }

  void clear() {
    m_segments.clear();
    m_starts.clear();
    m_size = 0;
  }

  // Sorts every item, keeping the order of equal ones: the segments are joined into one first.
  template <typename Less>
  void stable_sort(Less less) {
    join();
    if (!m_segments.empty()) {
      std::stable_sort(m_segments.front().begin(), m_segments.front().end(), less);
    }
  }

  friend bool operator==(const SegmentedList& a, const SegmentedList& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  struct Position {
    std::size_t segment = 0;
    std::size_t offset = 0;
  };

  // The segment and offset of the index-th item; {segment_count(), 0} for size().
  Position locate(size_type index) const {
    if (index >= m_size) {
      return {m_segments.size(), 0};
    }
    const auto after = std::upper_bound(m_starts.begin(), m_starts.end(), index);
    const auto segment = static_cast<std::size_t>(after - m_starts.begin()) - 1;
    return {segment, index - m_starts[segment]};
  }

  void join() {
    if (m_segments.size() <= 1) {
      return;
    }
    std::vector<T> all;
    all.reserve(m_size);
    for (std::vector<T>& segment : m_segments) {
      all.insert(all.end(), std::make_move_iterator(segment.begin()),
                 std::make_move_iterator(segment.end()));
    }
    m_segments.clear();
    m_segments.push_back(std::move(all));
    m_starts.assign(1, 0);
  }

  // Holds a pointer to its item and to the end of the item's segment: stepping and reading
  // touch neither the list nor its segment table until a segment ends.
  template <bool Const>
  class Iterator {
    using List = std::conditional_t<Const, const SegmentedList, SegmentedList>;

   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const T*, T*>;
    using reference = std::conditional_t<Const, const T&, T&>;

    Iterator() = default;
    Iterator(List* list, std::size_t index) : m_list(list) { seek(index); }
    // A const iterator from a mutable one.
    template <bool OtherConst>
    requires(Const && !OtherConst)
        Iterator(const Iterator<OtherConst>& other)  // NOLINT(google-explicit-constructor)
        : m_list(other.m_list),
          m_segment(other.m_segment),
          m_item(other.m_item),
          m_segment_end(other.m_segment_end),
          m_index(other.m_index) {}

    reference operator*() const { return *m_item; }
    pointer operator->() const { return m_item; }
    reference operator[](difference_type n) const { return *(*this + n); }

    Iterator& operator++() {
      ++m_index;
      if (++m_item == m_segment_end) {
        enter(m_segment + 1);
      }
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    Iterator& operator--() { return *this += -1; }
    Iterator operator--(int) {
      Iterator before = *this;
      --*this;
      return before;
    }
    Iterator& operator+=(difference_type n) {
      if (m_item != nullptr && n >= -(m_item - m_list->m_segments[m_segment].data()) &&
          n < m_segment_end - m_item) {
        m_item += n;  // within the segment: no search
        m_index = static_cast<std::size_t>(static_cast<difference_type>(m_index) + n);
        return *this;
      }
      seek(static_cast<std::size_t>(static_cast<difference_type>(m_index) + n));
      return *this;
    }
    Iterator& operator-=(difference_type n) { return *this += -n; }
    friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
    friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
    friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iterator& a, const Iterator& b) {
      return static_cast<difference_type>(a.m_index) - static_cast<difference_type>(b.m_index);
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_index == b.m_index; }
    friend std::strong_ordering operator<=>(const Iterator& a, const Iterator& b) {
      return a.m_index <=> b.m_index;
    }

   private:
    friend class Iterator<true>;

    // The first item of segment `segment`; past the end when there is no such segment.
    void enter(std::size_t segment) {
      m_segment = segment;
      if (segment < m_list->m_segments.size()) {
        auto& items = m_list->m_segments[segment];
        m_item = items.data();
        m_segment_end = m_item + items.size();
      } else {
        m_item = nullptr;
        m_segment_end = nullptr;
      }
    }
    void seek(std::size_t index) {
      const Position at = m_list->locate(index);
      enter(at.segment);
      if (m_item != nullptr) {
        m_item += at.offset;
      }
      m_index = index;
    }

    List* m_list = nullptr;
    std::size_t m_segment = 0;
    pointer m_item = nullptr;  // null past the end
    pointer m_segment_end = nullptr;
    std::size_t m_index = 0;
  };

  std::vector<std::vector<T>> m_segments;
  std::vector<std::size_t> m_starts;  // m_starts[s]: the index of segment s's first item
  std::size_t m_size = 0;
};

}  // namespace gpuport
