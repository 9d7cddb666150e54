// The kernel inventory of a Python file (see python_kernels.h).
#include "scan/python_kernels.h"

#include <string>
#include <string_view>

#include "lex/cuda_lexer.h"
#include "scan/inventory.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool is_cute_kernel_decorator(std::string_view name) {
  return name == "cute.kernel" || name == "cutlass.cute.kernel";
}

bool is_numba_jit(std::string_view name, bool numba_cuda) {
  return name == "numba.cuda.jit" || (numba_cuda && name == "cuda.jit");
}

// The index of the first token on `line` or later; tokens.size() when none.
std::size_t first_token_from(const TokenStream& tokens, std::uint32_t line) {
  std::size_t lo = 0;
  std::size_t hi = tokens.tokens.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (tokens.tokens[mid].line < line) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// `device=True` among the decorator's arguments (a Numba device function, not a kernel).
bool decorates_device_function(const TokenStream& tokens, std::uint32_t line) {
  for (std::size_t j = first_token_from(tokens, line);
       j + 2 < tokens.tokens.size() && tokens.tokens[j].line == line; ++j) {
    if (tokens.text_is(tokens.tokens[j], "device") && tokens.text_is(tokens.tokens[j + 1], "=") &&
        tokens.text_is(tokens.tokens[j + 2], "True")) {
      return true;
    }
  }
  return false;
}

// Whether token `k` starts a logical line (the file's first token, or one after a Newline).
bool starts_logical_line(const TokenStream& tokens, std::size_t k) {
  for (std::size_t j = k; j-- > 0;) {
    const TokenKind kind = tokens.tokens[j].kind;
    if (kind != TokenKind::Comment) {
      return kind == TokenKind::Newline;
    }
  }
  return true;
}

// The class a `def` at token `def` with indentation `indent` is a method of: the nearest
// enclosing `class NAME` (an enclosing function ends the search); empty when none.
std::string_view enclosing_class(const TokenStream& tokens, std::size_t def, std::uint32_t indent) {
  for (std::size_t k = def; k-- > 0 && indent > 1;) {
    const Token& t = tokens.tokens[k];
    if (t.kind == TokenKind::Newline || t.kind == TokenKind::Comment ||
        !starts_logical_line(tokens, k) || tokens.column(t) >= indent) {
      continue;
    }
    if (tokens.text_is(t, "class") && k + 1 < tokens.tokens.size()) {
      return tokens.text(tokens.tokens[k + 1]);
    }
    if (tokens.text_is(t, "def") || tokens.text_is(t, "async")) {
      return {};  // a nested function's kernel: no class to name it by
    }
    indent = tokens.column(t);  // a statement that encloses the def (if, with, ...)
  }
  return {};
}

struct PythonFunction {
  std::string name;
  std::uint32_t line = 0;
  std::uint32_t lines = 0;  // the def line through the last line of its body
};

// The function a decorator on `line` decorates: the next `def` (other decorators may sit
// between), its body the lines indented deeper than the `def`.
std::optional<PythonFunction> decorated_function(const TokenStream& tokens, std::uint32_t line) {
  const std::size_t count = tokens.tokens.size();
  std::size_t j = first_token_from(tokens, line + 1);
  for (; j < count; ++j) {
    const Token& t = tokens.tokens[j];
    if (t.kind == TokenKind::Identifier && tokens.text_is(t, "def")) {
      break;
    }
    if (t.kind == TokenKind::Identifier && tokens.text_is(t, "class")) {
      return std::nullopt;
    }
  }
  if (j + 1 >= count || tokens.tokens[j + 1].kind != TokenKind::Identifier) {
    return std::nullopt;
  }
  PythonFunction function;
  function.line = tokens.tokens[j].line;
  // The def's indentation is that of its line's first token (`async def` included).
  const std::size_t first = first_token_from(tokens, function.line);
  const std::uint32_t indent = tokens.column(tokens.tokens[first]);
  // A method is named by its class too: FA4's kernels are all methods named `kernel`.
  const std::string_view owner = enclosing_class(tokens, first, indent);
  function.name = (owner.empty() ? std::string() : std::string(owner) + ".") +
                  std::string(tokens.text(tokens.tokens[j + 1]));
  std::uint32_t last = function.line;
  // Past the def's logical line, each logical line's first token decides: deeper is the body.
  bool line_start = false;
  for (std::size_t k = j + 2; k < count; ++k) {
    const Token& t = tokens.tokens[k];
    if (t.kind == TokenKind::Newline) {
      line_start = true;
      continue;
    }
    if (t.kind == TokenKind::Comment) {
      continue;
    }
    if (line_start) {
      line_start = false;
      if (tokens.column(t) <= indent) {
        break;
      }
    }
    last = t.line;
  }
  function.lines = last - function.line + 1;
  return function;
}

void add_python_kernel(const SharedString& path, const PythonFunction& function,
                       KernelLanguage language, FileAnalysis& out) {
  Kernel kernel;
  kernel.name = function.name;
  kernel.file = path;
  kernel.line = function.line;
  kernel.lines_of_code = function.lines;
  kernel.language = language;
  out.kernels.push_back(std::move(kernel));
}

}  // namespace

void inventory_string_kernels(const SharedString& path, std::string_view source, std::uint32_t line,
                              FileAnalysis& out) {
  thread_local TokenStream tokens;
  lex_cuda_tokens(source, tokens);
  for (std::size_t i = 0; i < tokens.tokens.size(); ++i) {
    const Token& t = tokens.tokens[i];
    if (t.kind != TokenKind::Identifier || !tokens.text_is(t, "__global__")) {
      continue;
    }
    const std::optional<FunctionShape> shape = read_function(tokens, i);
    if (!shape || shape->body_close == SIZE_MAX || shape->name_begin == SIZE_MAX) {
      continue;
    }
    Kernel kernel = make_kernel(path, tokens, i, *shape);
    kernel.line += line - 1;
    kernel.language = KernelLanguage::PythonString;
    out.kernels.push_back(std::move(kernel));
  }
  tokens.clear();
}

bool imports_cutlass(const PythonFacts& facts) {
  for (const PythonImport& import : facts.imports) {
    const std::string_view module = import.module;
    if (module == "cutlass" || module.starts_with("cutlass.")) {
      return true;
    }
  }
  return false;
}

void inventory_python_kernels(const SharedString& path, const TokenStream& tokens,
                              const PythonFacts& facts, FileAnalysis& out) {
  const bool cutlass = imports_cutlass(facts);
  bool numba_cuda = false;
  for (const PythonImport& import : facts.imports) {
    const std::string_view module = import.module;
    numba_cuda = numba_cuda || module == "numba.cuda" || module.starts_with("numba.cuda.") ||
                 (module == "numba" && import.name == "cuda");
  }
  for (const PythonDotted& decorator : facts.decorators) {
    KernelLanguage language = KernelLanguage::Cuda;
    if (cutlass && is_cute_kernel_decorator(decorator.name)) {
      language = KernelLanguage::CuteDsl;
    } else if (is_numba_jit(decorator.name, numba_cuda) &&
               !decorates_device_function(tokens, decorator.line)) {
      language = KernelLanguage::Numba;
    } else {
      continue;
    }
    if (std::optional<PythonFunction> function = decorated_function(tokens, decorator.line)) {
      add_python_kernel(path, *function, language, out);
    }
  }
}

}  // namespace gpuport
