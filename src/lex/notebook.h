// Jupyter notebooks: the code cells, joined into Python source with a map back to file lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

struct NotebookCode {
  std::string python;                    // code cells joined, one '\n' between cells
  std::vector<std::uint32_t> file_line;  // file_line[i] = line in the .ipynb of python line i+1
};

struct NotebookError {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;  // "expected ',' or ']'" ...
};

// Reads the notebook JSON (nbformat 4: cells[].cell_type == "code", source as a string or a
// list of strings). Lines of IPython magics (%, !) are blanked, not dropped, so lines still map.
tl::expected<NotebookCode, NotebookError> extract_notebook_code(std::string_view json);

}  // namespace gpuport
