// attnlab: the command line over the AttnLab core. Parses the subcommand, runs it, and owns the error contract:
// any bad input ends with one line "attnlab: <message>" on stderr and exit code 2; --help/--version exit 0.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"

namespace {

constexpr int kExitBadInput = 2;

// Messages from CLI11 or a what() may span lines; the contract is one line.
int reportBadInput(const std::string& message) {
  std::string line = message;
  for (char& ch : line) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::cerr << "attnlab: " << line << std::endl;
  return kExitBadInput;
}

int run(int argc, char** argv) {
  CLI::App app{"attnlab: scaled dot-product attention, every intermediate, from the command line", "attnlab"};
  app.set_version_flag("--version", std::string("attnlab ") + ATTNLAB_VERSION);
  app.require_subcommand(1);
  app.footer("Bad input exits with code 2 and a one-line message on stderr.");

  const std::vector<attncli::Command> commands = {
      attncli::addTokenizeCommand(app),  attncli::addPresetsCommand(app), attncli::addTraceCommand(app),
      attncli::addSoftmaxCommand(app),   attncli::addSaturationCommand(app), attncli::addBenchCommand(app),
      attncli::addMatricesCommand(app),  attncli::addSimilarCommand(app), attncli::addAnalogyCommand(app),
      attncli::addTrainCommand(app),     attncli::addBackwardCommand(app), attncli::addGenerateCommand(app),
      attncli::addInputsCommand(app),  // inputs/check: check my implementation (core/check)
      attncli::addCheckCommand(app),
  };

  // CLI11 reports an unknown subcommand as "A subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const auto& command : commands) known = known || command.app->check_name(argv[1]);
    if (!known) {
      return reportBadInput(std::string("unknown subcommand '") + argv[1] +
                            "' (tokenize, presets, trace, matrices, softmax, saturation, bench, similar, analogy, train, "
                            "backward, generate, inputs or check; see "
                            "attnlab --help)");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return reportBadInput(std::string(e.what()) + " (see attnlab --help)");
  }
  for (const auto& command : commands) {
    if (command.app->parsed()) {
      command.run();
      std::cout.flush();
      return std::cout.good() ? 0 : reportBadInput("could not write the output");
    }
  }
  return reportBadInput("no subcommand given (see attnlab --help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const attn::InputError& e) {
    return reportBadInput(e.what());
  } catch (const std::bad_alloc&) {
    return reportBadInput("out of memory (try smaller sizes)");
  } catch (const std::exception& e) {  // last resort: still a message and exit 2, never an abort
    return reportBadInput(std::string("error: ") + e.what());
  } catch (...) {
    return reportBadInput("unknown error");
  }
}
