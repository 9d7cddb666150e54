#include "cli/command_line.h"

#include <vector>

#include "report/text_util.h"

namespace gpuport {

tl::expected<void, UsageError> parse_command_line(CLI::App& app, const CommandArgs& args,
                                                  std::string* help) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    if (help != nullptr) {
      *help = app.help();
    }
    return tl::unexpected(UsageError{});
  } catch (const CLI::ParseError& error) {
    return tl::unexpected(UsageError{printable(error.what())});
  }
  return {};
}

}  // namespace gpuport
