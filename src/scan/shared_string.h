// An immutable string whose copies share one allocation.
#pragma once

#include <compare>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace gpuport {

// The file path that every finding, kernel and launch site of a file carries: a scan keeps
// about 250,000 such items for 13,000 files, and a std::string each would be as many
// allocations and ~20 MB of heap. Copies share the text (the count is atomic, so copies may be
// made on any thread); it reads like a `const std::string`.
class SharedString {
 public:
  SharedString() = default;
  SharedString(std::string text)  // NOLINT(google-explicit-constructor): a drop-in for std::string
      : m_text(std::make_shared<const std::string>(std::move(text))) {}
  SharedString(std::string_view text) : SharedString(std::string(text)) {}  // NOLINT
  SharedString(const char* text) : SharedString(std::string(text)) {}       // NOLINT

  const std::string& str() const { return m_text ? *m_text : empty_string(); }
  operator const std::string&() const { return str(); }  // NOLINT
  operator std::string_view() const { return str(); }    // NOLINT

  bool empty() const { return str().empty(); }
  std::size_t size() const { return str().size(); }
  const char* data() const { return str().data(); }
  const char* c_str() const { return str().c_str(); }
  int compare(std::string_view other) const { return std::string_view(str()).compare(other); }
  // True when both copies share one text (then they are equal without a comparison).
  bool shares_with(const SharedString& other) const { return m_text == other.m_text; }

  friend bool operator==(const SharedString& a, const SharedString& b) {
    return a.m_text == b.m_text || a.str() == b.str();
  }
  friend bool operator==(const SharedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, const char* b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) {
    return a.str() <=> b.str();
  }
  friend std::strong_ordering operator<=>(const SharedString& a, const std::string& b) {
    return a.str() <=> b;
  }
  friend std::strong_ordering operator<=>(const SharedString& a, std::string_view b) {
    return std::string_view(a.str()) <=> b;
  }
  friend std::strong_ordering operator<=>(const SharedString& a, const char* b) {
    return std::string_view(a.str()) <=> std::string_view(b);
  }
  friend std::string operator+(std::string a, const SharedString& b) { return a += b.str(); }
  friend std::string operator+(const char* a, const SharedString& b) { return a + b.str(); }
  friend std::string operator+(const SharedString& a, std::string_view b) {
    std::string joined = a.str();
    return joined.append(b);
  }
  friend std::string operator+(const SharedString& a, char b) { return a.str() + b; }
  friend std::ostream& operator<<(std::ostream& out, const SharedString& text) {
    return out << text.str();
  }

 private:
  static const std::string& empty_string() {
    static const std::string empty;
    return empty;
  }

  std::shared_ptr<const std::string> m_text;
};

}  // namespace gpuport
