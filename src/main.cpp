// Entry point of the gpuport binary: argument dispatch to the subcommand table, nothing else.
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command_table.h"
#include "version.h"

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(gpuport::main_help().c_str(), stdout);
    return 0;
  }
  const std::string first = argv[1];
  if (first == "--version" || first == "-V") {
    std::printf("gpuport %s\n", gpuport::k_version);
    return 0;
  }
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && argc > 2) {
      if (const gpuport::Command* command = gpuport::find_command(argv[2])) {
        return command->run({"--help"});
      }
    }
    std::fputs(gpuport::main_help().c_str(), stdout);
    return 0;
  }
  if (const gpuport::Command* command = gpuport::find_command(first)) {
    return command->run(gpuport::CommandArgs(argv + 2, argv + argc));
  }
  std::vector<std::string_view> names;
  for (const gpuport::Command& command : gpuport::command_table()) {
    names.push_back(command.name);
  }
  std::string message = "gpuport: unknown command '" + first + "'.";
  if (first.starts_with("-")) {
    message = "gpuport: unknown option '" + first + "'.";
  } else if (auto suggestion = gpuport::did_you_mean(first, names)) {
    message += " Did you mean '" + std::string(*suggestion) + "'?";
  }
  std::fprintf(stderr, "%s\nRun 'gpuport --help' for the list of commands.\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (`gpuport scan . | head -1`) shows up as EPIPE on write, handled quietly.
  std::signal(SIGPIPE, SIG_IGN);
  // Past `ulimit -f` a write fails with EFBIG, reported with the file it was for, and the
  // staged output is cleaned up; the default action killed the process silently.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gpuport: error: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "gpuport: error: unexpected internal error\n");
  }
  return 2;
}
