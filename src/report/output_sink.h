// Where a report's bytes go: a file, standard output or a string. Writers stream into it.
#pragma once

#include <string>
#include <string_view>

namespace gpuport {

// Receives a report in chunks. A sink that fails remembers it and ignores later chunks; its
// owner checks once the report is written.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void write(std::string_view bytes) = 0;
};

class StringSink final : public OutputSink {
 public:
  void write(std::string_view bytes) override { m_text.append(bytes); }
  std::string& text() { return m_text; }

 private:
  std::string m_text;
};

}  // namespace gpuport
