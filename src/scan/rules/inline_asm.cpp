// Inline assembly (GP-ASM-*): PTX told apart from AMDGCN and host ISAs by what the text says.
#include <algorithm>
#include <array>
#include <string>

#include "scan/inventory.h"
#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.2: rows M1 and M3, and 4.5: D3, citing the HIP porting guide, HIP
// C++ language extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md
// (section 3: the traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights
// are engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-ASM-001", "ASM",  "Inline PTX",             k_rw,   k_high,  8.00,
   "Inline PTX assembly has no HIP compiler support, so each asm statement must be rewritten.",
   "Replace it with HIP intrinsics or __builtin_amdgcn_* builtins; keep the PTX behind a CUDA-only guard for the NVIDIA build."},
  {"GP-ASM-002", "ASM",  "Inline PTX",             k_rw,   k_high, 24.00,
   "Inline PTX for tensor cores or asynchronous copies (mma, wgmma, ldmatrix, cp.async, mbarrier, tcgen05) has no AMD instruction-level equivalent.",
   "Redesign the kernel around AMD matrix cores (rocWMMA, Composable Kernel) or call hipBLASLt; plan it as a kernel rewrite."},
};

constexpr ComponentInfo k_components[] = {
  {"Inline PTX",             "none",         "HIP intrinsics, __builtin_amdgcn_*, AMDGCN asm",                     "days to weeks per site"},
};
// clang-format on

// PTX opcode roots (the part before the first '.').
constexpr std::string_view k_ptx_roots[] = {
    "abs",        "activemask",
    "add",        "addc",
    "and",        "applypriority",
    "atom",       "bar",
    "barrier",    "bfe",
    "bfi",        "bfind",
    "bmsk",       "bra",
    "brev",       "brkpt",
    "call",       "clusterlaunchcontrol",
    "clz",        "cnot",
    "copysign",   "cos",
    "cp",         "createpolicy",
    "cvt",        "cvta",
    "discard",    "div",
    "dp2a",       "dp4a",
    "elect",      "ex2",
    "exit",       "fence",
    "fma",        "fns",
    "getctarank", "griddepcontrol",
    "isspacep",   "istypep",
    "ld",         "ldmatrix",
    "ldu",        "lg2",
    "lop3",       "mad",
    "mad24",      "madc",
    "match",      "max",
    "mbarrier",   "membar",
    "min",        "mma",
    "mov",        "movmatrix",
    "mul",        "mul24",
    "multimem",   "nanosleep",
    "neg",        "not",
    "or",         "pmevent",
    "popc",       "prefetch",
    "prefetchu",  "prmt",
    "rcp",        "red",
    "redux",      "rem",
    "ret",        "rsqrt",
    "sad",        "selp",
    "set",        "setmaxnreg",
    "setp",       "shf",
    "shfl",       "shl",
    "shr",        "sin",
    "slct",       "sqrt",
    "st",         "stackrestore",
    "stacksave",  "stmatrix",
    "sub",        "subc",
    "suld",       "sured",
    "sust",       "szext",
    "tanh",       "tcgen05",
    "tensormap",  "testp",
    "tex",        "tld4",
    "trap",       "txq",
    "vote",       "wgmma",
    "wmma",       "xor",
    "vabsdiff",   "vset",
};

// Suffixes that only PTX puts after an opcode (type and state-space qualifiers).
constexpr std::string_view k_ptx_suffixes[] = {
    "acq_rel",  "acquire",    "aligned", "all",  "any",     "approx",    "arrive", "async",
    "ballot",   "bfly",       "bulk",    "ca",   "cg",      "cluster",   "col",    "commit_group",
    "const",    "cs",         "cta",     "cv",   "down",    "expect_tx", "ftz",    "full",
    "global",   "gpu",        "hi",      "idx",  "im2col",  "lo",        "local",  "lu",
    "nc",       "noftz",      "param",   "pred", "relaxed", "release",   "rm",     "rmi",
    "rn",       "rni",        "rp",      "rpi",  "rz",      "rzi",       "sat",    "shared",
    "sync",     "sys",        "tensor",  "tile", "trans",   "try_wait",  "uni",    "up",
    "wait_all", "wait_group", "wb",      "wide", "wt",      "tf32",
};

constexpr std::string_view k_tensor_roots[] = {
    "ldmatrix", "mbarrier", "mma",       "movmatrix", "setmaxnreg",
    "stmatrix", "tcgen05",  "tensormap", "wgmma",     "wmma",
};

constexpr std::string_view k_special_registers[] = {
    "clock",       "clock64",        "ctaid",          "dynamic_smem_size",
    "globaltimer", "globaltimer_hi", "globaltimer_lo", "gridid",
    "lanemask_eq", "lanemask_ge",    "lanemask_gt",    "lanemask_le",
    "lanemask_lt", "laneid",         "nctaid",         "nsmid",
    "ntid",        "smid",           "warpid",
};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_ptx_suffix(std::string_view s) {
  if (s.empty()) {
    return false;
  }
  if (contains(k_ptx_suffixes, s) || s.find("::") != std::string_view::npos) {
    return true;
  }
  // Types: u32, s8, b16, f16x2, f64; bf16, bf16x2; e4m3, e5m2; vectors v2/v4; x1/x2/x4.
  char c = s[0];
  std::string_view rest = s.substr(1);
  if (std::size_t x = rest.find('x'); x != std::string_view::npos && x > 0) {
    if (!is_digits(rest.substr(x + 1))) {
      return false;
    }
    rest = rest.substr(0, x);
  }
  if ((c == 'u' || c == 's' || c == 'b' || c == 'f' || c == 'v' || c == 'x') && is_digits(rest)) {
    return true;
  }
  if (s.starts_with("bf16") || s == "e4m3" || s == "e5m2" || s == "e2m1" || s == "e3m2" ||
      s == "e2m3") {
    return true;
  }
  // Shapes: m16n8k16, m8n8.
  return c == 'm' && rest.find('n') != std::string_view::npos && is_digits(rest.substr(0, 1));
}

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_amdgcn_mnemonic(std::string_view word) {
  static constexpr std::string_view k_prefixes[] = {"v_",      "s_",    "ds_",      "global_",
                                                    "buffer_", "flat_", "scratch_", "image_"};
  if (word.find('.') != std::string_view::npos) {
    return false;
  }
  return std::any_of(std::begin(k_prefixes), std::end(k_prefixes), [&](std::string_view p) {
    return word.starts_with(p) && word.size() > p.size();
  });
}

struct AsmScan {
  AsmClass result;
  bool ptx = false;
  bool amdgcn = false;
};

void add_unique(std::vector<std::string>& list, std::string_view value) {
  if (list.size() < 32 && std::find(list.begin(), list.end(), value) == list.end()) {
    list.emplace_back(value);
  }
}

void read_instruction(std::string_view text, bool cuda_file, AsmScan& scan) {
  std::size_t p = 0;
  auto skip_blanks = [&] {
    while (p < text.size() &&
           (text[p] == ' ' || text[p] == '\t' || text[p] == '{' || text[p] == '}')) {
      ++p;
    }
  };
  skip_blanks();
  if (p < text.size() && text[p] == '@') {  // predicate guard: @p, @!p
    while (p < text.size() && text[p] != ' ' && text[p] != '\t') {
      ++p;
    }
    skip_blanks();
  }
  std::size_t start = p;
  while (p < text.size() && (is_ident_char(text[p]) || text[p] == '.' || text[p] == ':')) {
    ++p;
  }
  std::string_view word = text.substr(start, p - start);
  if (word.ends_with(":") && word.find("::") == std::string_view::npos) {  // a label
    read_instruction(text.substr(p), cuda_file, scan);
    return;
  }
  if (word.starts_with(".reg") && word.size() == 4) {
    scan.ptx = true;  // PTX register declaration: .reg .b32 r;
    return;
  }
  if (word.empty() || word[0] == '.') {
    return;
  }
  std::size_t dot = word.find('.');
  std::string_view root = word.substr(0, dot);
  if (dot == std::string_view::npos) {
    if (is_amdgcn_mnemonic(word)) {
      scan.amdgcn = true;
      add_unique(scan.result.mnemonics, word);
    } else if (cuda_file && (word == "trap" || word == "brkpt" || word == "exit")) {
      scan.ptx = true;
      add_unique(scan.result.mnemonics, word);
    }
    return;
  }
  if (!contains(k_ptx_roots, root)) {
    return;
  }
  bool ptx_suffix = false;
  bool async_suffix = false;
  std::string_view rest = word.substr(dot + 1);
  while (!rest.empty()) {
    std::size_t next = rest.find('.');
    std::string_view part = rest.substr(0, next);
    ptx_suffix = ptx_suffix || is_ptx_suffix(part);
    async_suffix = async_suffix || part == "async";
    if (next == std::string_view::npos) {
      break;
    }
    rest = rest.substr(next + 1);
  }
  if (!ptx_suffix) {
    return;  // mov.m.x (RISC-V custom), cvt.s.d (MIPS): same roots, no PTX qualifiers
  }
  scan.ptx = true;
  add_unique(scan.result.mnemonics, word);
  if (contains(k_tensor_roots, root) || (root == "cp" && async_suffix)) {
    scan.result.tensor = true;
  }
}

void read_registers(std::string_view text, AsmScan& scan) {
  for (std::size_t p = text.find('%'); p != std::string_view::npos; p = text.find('%', p)) {
    while (p < text.size() && text[p] == '%') {
      ++p;
    }
    std::size_t start = p;
    while (p < text.size() && is_ident_char(text[p])) {
      ++p;
    }
    std::string_view name = text.substr(start, p - start);
    if (contains(k_special_registers, name)) {
      scan.ptx = true;
      std::string spelled(1, '%');
      spelled += name;
      add_unique(scan.result.registers, spelled);
    }
  }
}

std::string join(const AsmClass& asm_class) {
  std::string detail;
  for (const auto* list : {&asm_class.mnemonics, &asm_class.registers}) {
    for (const std::string& item : *list) {
      if (!detail.empty()) {
        detail += ", ";
      }
      detail += item;
    }
  }
  return detail;
}

bool is_amdgcn_constraint(std::string_view body) {
  while (!body.empty() && (body[0] == '=' || body[0] == '+' || body[0] == '&')) {
    body.remove_prefix(1);
  }
  return body == "v" || body == "s";
}

void on_asm(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t j = next_code(ctx, i);
  while (j < ctx.size() && ctx.kind(j) == TokenKind::Identifier &&
         (ctx.text(j) == "volatile" || ctx.text(j) == "__volatile__" || ctx.text(j) == "goto" ||
          ctx.text(j) == "inline" || ctx.text(j) == "__volatile")) {
    j = next_code(ctx, j);
  }
  if (!ctx.is_punct(j, "(")) {
    return;
  }
  std::size_t close = match_forward(ctx, j, 8192);
  if (close == SIZE_MAX) {
    close = std::min(ctx.size(), j + 8192);
  }
  std::string text;
  std::size_t k = next_code(ctx, j);
  while (k < close && ctx.kind(k) == TokenKind::String) {
    text += string_body(ctx.text(k));
    text.push_back(' ');
    k = next_code(ctx, k);
  }
  if (text.empty()) {
    return;  // asm(MACRO): nothing to classify
  }
  bool amdgcn_constraint = false;
  for (; k < close; ++k) {
    if (ctx.kind(k) == TokenKind::String && is_amdgcn_constraint(string_body(ctx.text(k)))) {
      amdgcn_constraint = true;
    }
  }
  BranchContext context = ctx.tok[i].context;
  AsmClass asm_class = classify_asm(text, ctx.cuda_file || context == BranchContext::CudaDevice);
  if (amdgcn_constraint && asm_class.kind != AsmKind::Ptx) {
    asm_class.kind = AsmKind::Amdgcn;
  }
  if (context == BranchContext::Hip || asm_class.kind == AsmKind::Amdgcn) {
    std::string what = asm_class.mnemonics.empty() ? "inline asm" : asm_class.mnemonics.front();
    ctx.add_sign(AmdPathKind::AmdAsm, i, "AMDGCN asm: " + what);
    return;
  }
  if (asm_class.kind != AsmKind::Ptx) {
    return;  // host ISA (x86, ARM, RISC-V) or nothing recognisable
  }
  ctx.add(asm_class.tensor ? "GP-ASM-002" : "GP-ASM-001", i, join(asm_class));
  if (KernelFeatures* features = ctx.current_features()) {
    for (const std::string& mnemonic : asm_class.mnemonics) {
      add_distinct(features->ptx_instructions, mnemonic);
      std::string_view root = std::string_view(mnemonic).substr(0, mnemonic.find('.'));
      if (root == "mma" || root == "wgmma" || root == "ldmatrix" || root == "stmatrix" ||
          root == "tcgen05") {
        features->mma_ptx = true;
      }
    }
  }
}

}  // namespace

AsmClass classify_asm(std::string_view text, bool cuda_file) {
  AsmScan scan;
  // Instructions end at ';' or a newline, written in the literal as the escape "\n".
  std::size_t start = 0;
  for (std::size_t p = 0; p <= text.size(); ++p) {
    bool end = p == text.size() || text[p] == ';' || text[p] == '\n';
    std::size_t skip = 1;
    if (!end && text[p] == '\\' && p + 1 < text.size() &&
        (text[p + 1] == 'n' || text[p + 1] == 't' || text[p + 1] == 'r')) {
      end = text[p + 1] == 'n' || text[p + 1] == 'r';
      skip = 2;
      if (!end) {
        continue;  // "\t" inside an instruction is a blank; handled by the reader below
      }
    }
    if (end) {
      std::string segment(text.substr(start, p - start));
      for (std::size_t q = 0; q + 1 < segment.size(); ++q) {
        if (segment[q] == '\\' && segment[q + 1] == 't') {
          segment[q] = ' ';
          segment[q + 1] = ' ';
        }
      }
      read_instruction(segment, cuda_file, scan);
      read_registers(segment, scan);
      start = p + skip;
      p += skip - 1;
    }
  }
  scan.result.kind = scan.ptx ? AsmKind::Ptx : scan.amdgcn ? AsmKind::Amdgcn : AsmKind::Unknown;
  if (scan.result.kind != AsmKind::Ptx) {
    scan.result.registers.clear();
    scan.result.tensor = false;
    if (scan.result.kind == AsmKind::Unknown) {
      scan.result.mnemonics.clear();
    } else {
      // Keep only the AMDGCN mnemonics.
      std::erase_if(scan.result.mnemonics, [](const std::string& m) {
        return m.find('.') != std::string::npos || !is_amdgcn_mnemonic(m);
      });
    }
  } else {
    std::erase_if(scan.result.mnemonics,
                  [](const std::string& m) { return is_amdgcn_mnemonic(m); });
  }
  return scan.result;
}

namespace {

void register_asm(HandlerTable& table) {
  table.add("asm", on_asm);
  table.add("__asm__", on_asm);
  table.add("__asm", on_asm);
}

// No per-file state and no end-of-file rule: each asm statement is decided where it stands.
constexpr SourceFamily k_family = {
    .name = "ASM",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_asm,
    .begin = nullptr,
    .finish = nullptr,
};

}  // namespace

const SourceFamily& asm_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
