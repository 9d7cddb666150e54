// resolve_branches: a preprocessor that runs every world at once over a file's directives (and
// its project headers' skeletons), keeping per world whether each branch is compiled, never
// expanding anything but #if expressions.
#include "lex/preprocessor_view.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace gpuport {

namespace {

constexpr std::uint32_t k_no_branch = UINT32_MAX;
constexpr std::size_t k_max_levels = 4096;

struct BranchInfo {
  std::uint32_t chain = 0;
  TruthMask truth;  // where the branch's code is compiled
  std::uint32_t line = 0;
  Directive kind = Directive::If;
  bool on_path = false;
  std::uint32_t next_in_chain = k_no_branch;
  // Where the branch is taken when the code around its chain is compiled: what tells whether a
  // sibling replaces an excluded branch even where the chain itself is only maybe compiled.
  TruthMask local;
};

// A chain's branches are linked through BranchInfo::next_in_chain: no list per chain to allocate.
struct ChainInfo {
  std::uint32_t parent_branch = k_no_branch;
  std::uint32_t if_line = 0;
  std::uint32_t first_branch = k_no_branch;
  std::uint32_t last_branch = k_no_branch;
};

struct Level {
  TruthMask parent;      // where the code around the chain is compiled
  TruthMask none_taken;  // ... and no branch so far was taken
  TruthMask branch;      // where the current branch is compiled
  // The same two, as if the code around the chain were compiled everywhere (BranchInfo::local).
  TruthMask local_none_taken = TruthMask::all_true(k_all_worlds);
  TruthMask local_branch;
  std::uint32_t chain = 0;
  std::uint32_t branch_id = k_no_branch;  // root file only
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct PendingRegion {
  std::uint32_t first_token = 0;
  TruthMask reach;
  std::uint32_t branch = k_no_branch;
};

bool is_literal_diagnostic(const LexDiagnostic& diagnostic) {
  return diagnostic.message == "unterminated character literal" ||
         diagnostic.message == "unterminated string literal";
}

// `#ifndef X` followed by `#define X`, or `#pragma once`: a second inclusion is harmless.
bool has_include_guard(const HeaderSkeleton& skeleton) {
  const DirectiveList list = skeleton.list();
  for (std::size_t i = 0; i < list.records.size(); ++i) {
    const DirectiveRecord& record = list.records[i];
    if (record.kind == Directive::Pragma) {
      if (first_identifier(list.rest(record)) == "once") {
        return true;
      }
      continue;
    }
    if (record.kind == Directive::Ifndef && i + 1 < list.records.size() &&
        list.records[i + 1].kind == Directive::Define) {
      return first_identifier(list.rest(record)) ==
             parse_define(list.rest(list.records[i + 1])).name;
    }
    return false;
  }
  return false;
}

// A header walk being recorded (pp_memo.h): what it read first, what it did.
struct Builder {
  HeaderRecording recording;
  std::unordered_set<std::string> touched;  // names read or written: only first reads count
  std::unordered_set<std::string_view> once_seen;
  std::size_t first_directive = 0;
  std::size_t base_depth = 0;
  bool impure = false;  // hit a cycle, the depth limit or the budget: depends on the includer
};

bool same_resolution(const MacroResolution& now, const MemoRead::World& then) {
  return now.kind == then.kind && now.value == then.value && now.body == then.body;
}

// The lists of one walk, kept by each thread from file to file so that a file allocates nothing
// its predecessors did not already.
struct SimulatorScratch {
  MacroTable macros;
  std::vector<std::string_view> stack;
  std::vector<std::string_view> once;
  std::vector<BranchInfo> branches;
  std::vector<ChainInfo> chains;
  std::vector<PendingRegion> regions;
  std::vector<std::uint32_t> chosen;

  void clear() {
    macros.clear();
    stack.clear();
    once.clear();
    branches.clear();
    chains.clear();
    regions.clear();
    chosen.clear();
  }
};

class Simulator final : public MacroResolver {
 public:
  Simulator(const PreprocessorSetup& setup, SimulatorScratch& scratch)
      : m_setup(setup),
        m_macros(scratch.macros),
        m_stack(scratch.stack),
        m_once(scratch.once),
        m_branches(scratch.branches),
        m_chains(scratch.chains),
        m_regions(scratch.regions),
        m_chosen(scratch.chosen) {
    scratch.clear();
  }

  void run(TokenStream& stream) {
    m_root = &stream;
    m_stack.push_back(m_setup.path);
    m_regions.push_back({0, TruthMask::all_true(k_all_worlds), k_no_branch});
    walk(stream.directive_list(), m_setup.path, TruthMask::all_true(k_all_worlds), 0);
    m_stack.pop_back();
    finish(stream);
  }

  MacroResolution resolve(std::string_view name, World world) const override {
    MacroResolution out[k_world_count];
    resolve_worlds(name, static_cast<WorldMask>(1u << static_cast<unsigned>(world)), out);
    return out[static_cast<std::size_t>(world)];
  }

  // The translation unit's own definition first, then the build's -D flags for the world's side,
  // then the platform; each looked up once for all the worlds asked.
  void resolve_worlds(std::string_view name, WorldMask worlds,
                      MacroResolution (&out)[k_world_count]) const override {
    const MacroSlots* slots = m_macros.find(name);
    const BuildMacro* build[2] = {nullptr, nullptr};
    if (m_setup.build != nullptr && !m_setup.build->empty()) {
      build[0] = m_setup.build->find(BuildSide::Cuda, name);
      build[1] = m_setup.build->find(BuildSide::Amd, name);
    }
    const PlatformMacro kind = classify_platform_macro(name);
    if (!m_builders.empty() && !m_suspended) {
      record_read(name, slots, build, kind);
    }
    for (std::size_t w = 0; w < k_world_count; ++w) {
      if ((worlds & (1u << w)) != 0) {
        out[w] = resolve_one(name, static_cast<World>(w), slots, build, kind);
      }
    }
  }

  // A name read for the first time by a recorded walk: its value in every world.
  void record_read(std::string_view name, const MacroSlots* slots,
                   const BuildMacro* const (&build)[2], PlatformMacro kind) const {
    MemoRead* read = nullptr;
    for (Builder* builder : m_builders) {
      if (!builder->touched.insert(std::string(name)).second) {
        continue;
      }
      if (read == nullptr) {
        builder->recording.reads.emplace_back();
        read = &builder->recording.reads.back();
        read->name = std::string(name);
        for (std::size_t w = 0; w < k_world_count; ++w) {
          const MacroResolution r = resolve_one(name, static_cast<World>(w), slots, build, kind);
          read->worlds[w] = {r.kind, r.value, std::string(r.body)};
        }
      } else {
        builder->recording.reads.push_back(*read);
      }
    }
  }

  MacroResolution resolve_one(std::string_view name, World world, const MacroSlots* slots,
                              const BuildMacro* const (&build)[2], PlatformMacro kind) const {
    bool known_absent = false;
    if (slots != nullptr) {
      const std::int32_t slot = slots->slot[static_cast<std::size_t>(world)];
      if (slot >= 0) {
        const MacroDefinition& definition = m_macros.definition(slot);
        if (definition.function_like) {
          return {MacroResolution::Kind::FunctionLike, 0, {}};
        }
        if (definition.unknown_value) {
          return {MacroResolution::Kind::DefinedUnknownValue, 0, {}};
        }
        return {MacroResolution::Kind::Body, 0, definition.body};
      }
      if (slot == MacroSlots::k_undefined) {
        return {MacroResolution::Kind::Undefined, 0, {}};
      }
      if (slot == MacroSlots::k_unknown) {
        return {MacroResolution::Kind::Unknown, 0, {}};
      }
      known_absent = slot == MacroSlots::k_known_absent;
    }
    if (const BuildMacro* macro = build[build_side(world) == BuildSide::Amd ? 1 : 0]) {
      switch (macro->state) {
        case BuildMacro::State::Defined:
          if (macro->unknown_value) {
            return {MacroResolution::Kind::DefinedUnknownValue, 0, {}};
          }
          return {MacroResolution::Kind::Body, 0, macro->body};
        case BuildMacro::State::Undefined:
          return {MacroResolution::Kind::Undefined, 0, {}};
        case BuildMacro::State::Unknown:
          return {MacroResolution::Kind::Unknown, 0, {}};
      }
    }
    if (kind == PlatformMacro::None || (kind == PlatformMacro::HipSwitch && known_absent)) {
      // The project's own name: not defined where its #define did not run; a name the project
      // never defines is the build's or a toolchain's, and unknown.
      return {
          known_absent ? MacroResolution::Kind::Undefined : MacroResolution::Kind::Unknown, 0, {}};
    }
    const PlatformValue value = platform_value(name, kind, world);
    switch (value.kind) {
      case PlatformValue::Kind::Undefined:
        return {MacroResolution::Kind::Undefined, 0, {}};
      case PlatformValue::Kind::Value:
        return {MacroResolution::Kind::Value, value.value, {}};
      case PlatformValue::Kind::Nonzero:
        return {MacroResolution::Kind::Nonzero, 0, {}};
      case PlatformValue::Kind::Unknown:
        break;
    }
    return {MacroResolution::Kind::Unknown, 0, {}};
  }

 private:
  bool root_walk(std::size_t depth) const { return depth == 0; }

  void diagnose(std::uint32_t line, std::uint32_t column, std::string message) {
    m_root->diagnostics.push_back({line, column, std::move(message)});
  }

  TruthMask evaluate(Directive kind, std::string_view text, WorldMask worlds,
                     bool* evaluated = nullptr) const {
    return evaluate_condition(kind, text, *this, worlds, m_setup.limits, evaluated);
  }

  void walk(const DirectiveList& list, std::string_view path, TruthMask base, std::size_t depth) {
    for (Builder* builder : m_builders) {
      builder->recording.walked.push_back(path);
      builder->recording.depth = std::max(builder->recording.depth, depth - builder->base_depth);
    }
    std::vector<Level> levels;
    std::size_t overflow = 0;
    const bool root = root_walk(depth);
    auto reach = [&]() { return levels.empty() ? base : levels.back().branch; };
    for (const DirectiveRecord& record : list.records) {
      if (!root && ++m_directives > m_setup.max_directives) {
        budget_exhausted();
        return;
      }
      if (root) {
        ++m_directives;
      }
      const std::string_view rest = list.rest(record);
      switch (record.kind) {
        case Directive::If:
        case Directive::Ifdef:
        case Directive::Ifndef: {
          if (overflow > 0 || levels.size() >= k_max_levels) {
            if (overflow++ == 0 && root) {
              diagnose(record.line, record.column,
                       "#if nesting deeper than 4096 levels; deeper levels are treated as "
                       "neutral");
            }
            break;
          }
          Level level;
          level.parent = reach();
          level.none_taken = level.parent;
          level.line = record.line;
          level.column = record.column;
          const std::uint32_t outer_branch = levels.empty() ? k_no_branch : levels.back().branch_id;
          take_branch(level, record, rest, root);
          if (root) {
            begin_region(record.first_token, level.parent, outer_branch);
            level.chain = static_cast<std::uint32_t>(m_chains.size());
            m_chains.push_back({outer_branch, record.line, k_no_branch, k_no_branch});
            level.branch_id = add_branch(level, record);
            begin_region(record.end_token, level.branch, level.branch_id);
          }
          levels.push_back(level);
          break;
        }
        case Directive::Elif:
        case Directive::Elifdef:
        case Directive::Elifndef:
        case Directive::Else: {
          if (overflow > 0) {
            break;
          }
          if (levels.empty()) {
            if (root) {
              diagnose(record.line, record.column,
                       record.kind == Directive::Else ? "#else without #if" : "#elif without #if");
            }
            break;
          }
          Level& level = levels.back();
          if (root) {
            begin_region(record.first_token, level.parent, m_chains[level.chain].parent_branch);
          }
          if (record.kind == Directive::Else) {
            level.branch = level.none_taken;
            level.none_taken = TruthMask::all_false(k_all_worlds);
            level.local_branch = level.local_none_taken;
            level.local_none_taken = TruthMask::all_false(k_all_worlds);
          } else {
            take_branch(level, record, rest, root);
          }
          if (root) {
            level.branch_id = add_branch(level, record);
            begin_region(record.end_token, level.branch, level.branch_id);
          }
          break;
        }
        case Directive::Endif: {
          if (overflow > 0) {
            --overflow;
            break;
          }
          if (levels.empty()) {
            if (root) {
              diagnose(record.line, record.column, "#endif without #if");
            }
            break;
          }
          const Level level = levels.back();
          levels.pop_back();
          if (root) {
            const std::uint32_t outer = m_chains[level.chain].parent_branch;
            begin_region(record.first_token, level.parent, outer);
            begin_region(record.end_token, level.parent, outer);
          }
          break;
        }
        case Directive::Define: {
          const TruthMask here = reach();
          MacroText text = parse_define(rest);
          if (text.name.empty()) {
            break;
          }
          apply_define({text.name, text.body, text.function_like, false}, here.sure_true(),
                       here.unknown());
          break;
        }
        case Directive::Undef: {
          const TruthMask here = reach();
          std::string_view name = first_identifier(rest);
          if (!name.empty()) {
            apply_undefine(name, here.sure_true(), here.unknown());
          }
          break;
        }
        case Directive::Include: {
          const TruthMask here = reach();
          if (here.may_true != 0) {
            if (root) {
              m_include_line = record.line;
              m_include_column = record.column;
            }
            include(path, rest, here, depth, root && (here.may_true & k_amd_worlds) != 0);
          }
          break;
        }
        case Directive::Pragma:
          if (reach().may_true != 0 && first_identifier(rest) == "once") {
            mark_once(path);
          }
          break;
        default:
          break;
      }
    }
    if (root) {
      for (const Level& level : levels) {
        diagnose(level.line, level.column, "unterminated #if");
      }
    }
  }

  // The next branch of `level`: taken where no earlier one was and `record`'s condition holds.
  void take_branch(Level& level, const DirectiveRecord& record, std::string_view rest, bool root) {
    const WorldMask open = level.none_taken.may_true;
    bool evaluated = true;
    TruthMask condition = evaluate(record.kind, rest, open, &evaluated);
    if (!evaluated && root) {
      diagnose(record.line, record.column,
               "cannot evaluate this condition (it does not parse, or exceeds the evaluator's "
               "limits): its branches are unknown in both builds");
    }
    // Worlds where the chain is already decided keep condition bits of neither kind; `false`
    // there keeps every world with at least one bit, which the masks below rely on.
    condition.may_false |= static_cast<WorldMask>(k_all_worlds & ~open);
    level.branch = truth_and(level.none_taken, condition);
    level.none_taken = truth_and(level.none_taken, truth_not(condition));
    level.local_branch = truth_and(level.local_none_taken, condition);
    level.local_none_taken = truth_and(level.local_none_taken, truth_not(condition));
  }

  std::uint32_t add_branch(const Level& level, const DirectiveRecord& record) {
    const auto id = static_cast<std::uint32_t>(m_branches.size());
    m_branches.push_back({level.chain, level.branch, record.line, record.kind, false, k_no_branch,
                          level.local_branch});
    ChainInfo& chain = m_chains[level.chain];
    if (chain.last_branch == k_no_branch) {
      chain.first_branch = id;
    } else {
      m_branches[chain.last_branch].next_in_chain = id;
    }
    chain.last_branch = id;
    return id;
  }

  void begin_region(std::uint32_t first_token, TruthMask reach, std::uint32_t branch) {
    m_regions.push_back({first_token, reach, branch});
  }

  // An #include of the root file that the AMD build may compile: the project header it names,
  // or (not resolved) the file name it may mean. See TokenStream::amd_includes.
  void note_amd_include(const IncludeTarget& target, const HeaderSkeleton* header) {
    if (header != nullptr) {
      m_root->amd_includes.emplace_back(header->path);
      m_root->amd_include_lines.push_back(m_include_line);
      return;
    }
    std::string_view name = target.header;
    if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    if (m_setup.includes->names_project_file(name)) {
      m_root->unresolved_amd_includes.emplace_back(name);
    }
  }

  void include(std::string_view from, std::string_view rest, TruthMask here, std::size_t depth,
               bool note_for_amd) {
    if (m_setup.includes == nullptr) {
      return;
    }
    const IncludeTarget target = parse_include(rest);
    if (m_budget_warned) {
      mark_impure();
      if (note_for_amd && target.valid) {
        note_amd_include(target, nullptr);  // not followed: only its name is known
      }
      return;
    }
    if (!target.valid) {
      return;
    }
    const HeaderSkeleton* header = m_setup.includes->find(from, target);
    if (note_for_amd) {
      note_amd_include(target, header);
    }
    if (header == nullptr) {
      return;
    }
    const std::string_view path = header->path;
    const bool onced = std::find(m_once.begin(), m_once.end(), path) != m_once.end();
    for (Builder* builder : m_builders) {
      if (builder->once_seen.insert(path).second) {
        builder->recording.once_reads.emplace_back(path, onced);
      }
    }
    if (onced) {
      return;
    }
    if (std::find(m_stack.begin(), m_stack.end(), path) != m_stack.end()) {
      mark_impure();
      if (!m_cycle_warned && !has_include_guard(*header)) {
        m_cycle_warned = true;
        diagnose(m_include_line, m_include_column,
                 "#include cycle through " + std::string(path) +
                     ", which has no include guard; the cycle is not followed and its macros "
                     "are unknown");
      }
      return;
    }
    if (depth + 1 > m_setup.max_include_depth) {
      mark_impure();
      if (!m_depth_warned) {
        m_depth_warned = true;
        diagnose(m_include_line, m_include_column,
                 "#include chain deeper than " + std::to_string(m_setup.max_include_depth) +
                     " files (at " + std::string(path) +
                     "); the headers past that depth are not followed and their macros are "
                     "unknown");
      }
      return;
    }
    HeaderMemo* memo = m_setup.includes->memo();
    const HeaderMemo::Key key{header, here.may_true, here.may_false};
    if (memo != nullptr) {
      for (const auto& recording : memo->find(key)) {
        if (replayable(*recording, depth)) {
          // Hold it while replaying: nothing adds to this thread's memo meanwhile, but the
          // list may move when a nested walk records.
          const std::shared_ptr<const HeaderRecording> held = recording;
          replay(*held);
          return;
        }
      }
    }
    Builder builder;
    builder.first_directive = m_directives;
    builder.base_depth = depth + 1;
    m_builders.push_back(&builder);
    m_stack.push_back(path);
    walk(header->list(), path, here, depth + 1);
    m_stack.pop_back();
    m_builders.pop_back();
    if (memo != nullptr && !builder.impure) {
      builder.recording.directives = m_directives - builder.first_directive;
      memo->add(key, std::make_shared<const HeaderRecording>(std::move(builder.recording)));
    }
  }

  // A recording replays exactly what a walk from here would do when every name it read has the
  // value it had, every `#pragma once` it saw is as it was, none of the headers it walked is
  // open now, and the depth and directive limits leave room for all of it.
  bool replayable(const HeaderRecording& recording, std::size_t depth) const {
    if (depth + 1 + recording.depth > m_setup.max_include_depth ||
        m_directives + recording.directives > m_setup.max_directives) {
      return false;
    }
    for (std::string_view walked : recording.walked) {
      if (std::find(m_stack.begin(), m_stack.end(), walked) != m_stack.end()) {
        return false;
      }
    }
    for (const auto& [path, onced] : recording.once_reads) {
      if ((std::find(m_once.begin(), m_once.end(), path) != m_once.end()) != onced) {
        return false;
      }
    }
    MacroResolution now[k_world_count];
    for (const MemoRead& read : recording.reads) {
      // Validation reads are not the walk's reads: keep them out of any recording.
      m_suspended = true;
      resolve_worlds(read.name, k_all_worlds, now);
      m_suspended = false;
      for (std::size_t w = 0; w < k_world_count; ++w) {
        if (!same_resolution(now[w], read.worlds[w])) {
          return false;
        }
      }
    }
    return true;
  }

  void replay(const HeaderRecording& recording) {
    for (Builder* builder : m_builders) {
      for (const MemoRead& read : recording.reads) {
        if (builder->touched.insert(read.name).second) {
          builder->recording.reads.push_back(read);
        }
      }
      for (const auto& [path, onced] : recording.once_reads) {
        if (builder->once_seen.insert(path).second) {
          builder->recording.once_reads.emplace_back(path, onced);
        }
      }
      builder->recording.walked.insert(builder->recording.walked.end(), recording.walked.begin(),
                                       recording.walked.end());
    }
    for (const MemoOp& op : recording.ops) {
      switch (op.kind) {
        case MemoOp::Kind::Define:
          apply_define(op.definition, op.sure, op.maybe);
          break;
        case MemoOp::Kind::Undefine:
          apply_undefine(op.name, op.sure, op.maybe);
          break;
        case MemoOp::Kind::Once:
          mark_once(op.name);
          break;
      }
    }
    m_directives += recording.directives;
  }

  void apply_define(const MacroDefinition& definition, WorldMask sure, WorldMask maybe) {
    m_macros.define(definition, sure, maybe);
    for (Builder* builder : m_builders) {
      builder->touched.insert(std::string(definition.name));
      builder->recording.ops.push_back({MemoOp::Kind::Define, definition, {}, sure, maybe});
    }
  }

  void apply_undefine(std::string_view name, WorldMask sure, WorldMask maybe) {
    m_macros.undefine(name, sure, maybe);
    for (Builder* builder : m_builders) {
      builder->touched.insert(std::string(name));
      builder->recording.ops.push_back({MemoOp::Kind::Undefine, {}, name, sure, maybe});
    }
  }

  void mark_once(std::string_view path) {
    m_once.push_back(path);
    for (Builder* builder : m_builders) {
      builder->once_seen.insert(path);
      builder->recording.ops.push_back({MemoOp::Kind::Once, {}, path, 0, 0});
    }
  }

  void mark_impure() {
    for (Builder* builder : m_builders) {
      builder->impure = true;
    }
  }

  void budget_exhausted() {
    mark_impure();
    if (m_budget_warned) {
      return;
    }
    m_budget_warned = true;
    diagnose(m_include_line, m_include_column,
             "more than " + std::to_string(m_setup.max_directives) +
                 " preprocessor directives in this file and its headers; the #includes after "
                 "this one are not followed and their macros are unknown");
  }

  void finish(TokenStream& stream);
  void decide_paths();
  AmdBuild amd_build_of(TruthMask reach, std::uint32_t branch) const;

  const PreprocessorSetup& m_setup;
  TokenStream* m_root = nullptr;
  MacroTable& m_macros;
  std::vector<std::string_view>& m_stack;
  std::vector<std::string_view>& m_once;
  std::vector<BranchInfo>& m_branches;
  std::vector<ChainInfo>& m_chains;
  std::vector<PendingRegion>& m_regions;
  std::vector<std::uint32_t>& m_chosen;
  std::size_t m_directives = 0;
  std::uint32_t m_include_line = 0;
  std::uint32_t m_include_column = 0;
  bool m_budget_warned = false;
  bool m_cycle_warned = false;
  bool m_depth_warned = false;
  std::vector<Builder*> m_builders;  // the header walks being recorded, outermost first
  mutable bool m_suspended = false;  // validating a recording: its reads are not recorded
};

void Simulator::decide_paths() {
  std::vector<std::uint32_t>& chosen = m_chosen;
  chosen.assign(m_chains.size(), k_no_branch);
  for (std::size_t c = 0; c < m_chains.size(); ++c) {
    for (std::uint32_t b = m_chains[c].first_branch; b != k_no_branch;
         b = m_branches[b].next_in_chain) {
      if ((m_branches[b].truth.sure_true() & k_amd_worlds) != 0) {
        chosen[c] = b;
        break;
      }
    }
    if (chosen[c] == k_no_branch) {
      for (std::uint32_t b = m_chains[c].first_branch; b != k_no_branch;
           b = m_branches[b].next_in_chain) {
        if (m_branches[b].truth.may_true != 0) {
          chosen[c] = b;
          break;
        }
      }
    }
  }
  // Branches are numbered in the order they open, so a chain's parent branch comes first.
  for (std::size_t b = 0; b < m_branches.size(); ++b) {
    const BranchInfo& branch = m_branches[b];
    const ChainInfo& chain = m_chains[branch.chain];
    const bool parent_on_path =
        chain.parent_branch == k_no_branch || m_branches[chain.parent_branch].on_path;
    m_branches[b].on_path = parent_on_path && chosen[branch.chain] == b;
  }
}

AmdBuild Simulator::amd_build_of(TruthMask reach, std::uint32_t branch) const {
  AmdBuild amd;
  if ((reach.sure_true() & k_amd_worlds) != 0) {
    amd.state = AmdBuildState::Compiled;
    return amd;
  }
  if ((reach.may_true & k_amd_worlds) != 0 || branch == k_no_branch) {
    return amd;
  }
  amd.state = AmdBuildState::Excluded;
  // The outermost branch that leaves the code out decides it.
  std::uint32_t deciding = branch;
  for (;;) {
    const std::uint32_t parent = m_chains[m_branches[deciding].chain].parent_branch;
    if (parent == k_no_branch || (m_branches[parent].truth.may_true & k_amd_worlds) != 0) {
      break;
    }
    deciding = parent;
  }
  const BranchInfo& info = m_branches[deciding];
  const ChainInfo& chain = m_chains[info.chain];
  amd.guard_line = info.kind == Directive::Else ? chain.if_line : info.line;
  // AMD worlds that may compile the code around the chain: there, a sibling sure to be taken
  // replaces the excluded branch (an #else under an undecided outer #if still counts).
  const WorldMask around = chain.parent_branch == k_no_branch
                               ? k_amd_worlds
                               : (m_branches[chain.parent_branch].truth.may_true & k_amd_worlds);
  for (std::uint32_t sibling = chain.first_branch; sibling != k_no_branch;
       sibling = m_branches[sibling].next_in_chain) {
    if (sibling != deciding && (m_branches[sibling].local.sure_true() & around) != 0) {
      amd.alternative = true;
      break;
    }
  }
  return amd;
}

void Simulator::finish(TokenStream& stream) {
  decide_paths();
  const auto token_count = static_cast<std::uint32_t>(stream.tokens.size());
  stream.regions.clear();
  stream.regions.reserve(m_regions.size());
  bool any_dead = false;
  for (std::size_t r = 0; r < m_regions.size(); ++r) {
    const PendingRegion& pending = m_regions[r];
    BranchRegion region;
    region.first_token = std::min(pending.first_token, token_count);
    region.may_true = pending.reach.may_true;
    region.may_false = pending.reach.may_false;
    region.context = context_of_reach(pending.reach.may_true);
    region.on_path = region.context != BranchContext::Dead &&
                     (pending.branch == k_no_branch || m_branches[pending.branch].on_path);
    region.amd = amd_build_of(pending.reach, pending.branch);
    if (region.first_token < token_count) {
      region.line = stream.tokens[region.first_token].line;
    } else {
      region.line = static_cast<std::uint32_t>(stream.line_starts.size()) + 1;
    }
    any_dead = any_dead || region.context == BranchContext::Dead;
    stream.regions.push_back(region);
  }
  for (std::size_t r = 0; r < stream.regions.size(); ++r) {
    const BranchRegion& region = stream.regions[r];
    const std::uint32_t end =
        r + 1 < stream.regions.size() ? stream.regions[r + 1].first_token : token_count;
    if (region.context == BranchContext::Neutral && region.on_path) {
      continue;
    }
    const std::uint8_t flag = region.on_path ? 0 : k_token_off_path;
    stream.has_off_path = stream.has_off_path || (!region.on_path && region.first_token < end);
    for (std::uint32_t t = region.first_token; t < end; ++t) {
      stream.tokens[t].context = region.context;
      stream.tokens[t].flags |= flag;
    }
    if (region.context == BranchContext::Hip && region.first_token < end &&
        stream.first_hip_token == TokenStream::k_no_token) {
      stream.first_hip_token = region.first_token;
    }
  }
  if (any_dead) {
    std::erase_if(stream.anchors, [&](std::uint32_t index) {
      return stream.tokens[index].context == BranchContext::Dead;
    });
    std::erase_if(stream.diagnostics, [&](const LexDiagnostic& diagnostic) {
      if (!is_literal_diagnostic(diagnostic)) {
        return false;
      }
      const BranchRegion* region = stream.region_at_line(diagnostic.line);
      return region != nullptr && region->context == BranchContext::Dead;
    });
  }
}

}  // namespace

BranchContext context_of_reach(WorldMask may_true) {
  const bool amd = (may_true & k_amd_worlds) != 0;
  const bool other = (may_true & k_cuda_worlds) != 0;
  if (amd && other) {
    return BranchContext::Neutral;
  }
  if (amd) {
    return BranchContext::Hip;
  }
  return other ? BranchContext::CudaDevice : BranchContext::Dead;
}

void resolve_branches(TokenStream& stream, const PreprocessorSetup& setup) {
  // Headers walked from here may come back to this function only through a fresh stream (a
  // skeleton is read with lex_cuda_tokens, which does not resolve), so one scratch per thread.
  thread_local SimulatorScratch scratch;
  Simulator simulator(setup, scratch);
  simulator.run(stream);
  stream.macros_at_end = &scratch.macros;
}

const MacroDefinition* amd_definition_at_end(const TokenStream& stream, std::string_view name) {
  if (stream.macros_at_end == nullptr) {
    return nullptr;
  }
  const MacroSlots* slots = stream.macros_at_end->find(name);
  if (slots == nullptr) {
    return nullptr;
  }
  for (std::size_t world = 0; world < k_world_count; ++world) {
    const std::int32_t slot = slots->slot[world];
    if ((world_bit(static_cast<World>(world)) & k_amd_worlds) != 0 && slot >= 0) {
      return &stream.macros_at_end->definition(slot);
    }
  }
  return nullptr;
}

}  // namespace gpuport
