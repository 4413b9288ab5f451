// `attnlab inputs --config C.json --out PATH [--format npz|json|csv]`: the inputs of a configuration for a learner's
// own attention code (core/check/inputs.h): X (X_q in cross-attention), W_q, W_k, W_v, W_o (whole, and one slice per
// head as W_q_heads …), the mask, the scale, heads, d_k, d_v.
//   PATH.npz             one .npz (numpy.load(PATH))                       the default for a name ending in .npz
//   PATH.json            one JSON object of lists of rows (−∞ as -Infinity) the default for a name ending in .json
//   DIR or PATH.zip      one CSV per array (W_q_heads0.csv: head 0's W_q)   the default otherwise
//   -                    standard output (npz or json)
// Prints what it wrote: one line per array with its shape.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include <sys/stat.h>

#include "cli/check_files.h"
#include "cli/cli_common.h"
#include "core/check/inputs.h"
#include "core/errors.h"
#include "core/pipeline.h"

namespace attncli {

namespace {

struct InputsArgs {
  std::string configFile, out, format, dataDir;
};

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void runInputs(const InputsArgs& args) {
  std::string format = args.format;
  if (format.empty()) format = endsWith(args.out, ".npz") ? "npz" : (endsWith(args.out, ".json") || args.out == "-") ? "json" : "csv";
  if (args.out == "-" && format == "csv")
    throw attn::InputError("--format csv writes one file per array: give --out a folder or a .zip, not '-'");
  std::vector<std::string> notes;
  const attn::Config config = attn::checkableConfig(readCheckConfig(args.configFile, args.dataDir), &notes);
  for (const std::string& note : notes) std::cerr << "attnlab: note: " << note << "\n";
  const attn::Trace trace = attn::computeTrace(config);
  const std::vector<attn::InputArray> arrays = attn::inputArrays(trace);

  if (format == "npz") {
    writeWholeFile(args.out, attn::inputsNpz(arrays));
  } else if (format == "json") {
    writeWholeFile(args.out, attn::inputsJson(arrays));
  } else {
    const std::vector<attn::ZipEntry> files = attn::inputsCsvFiles(arrays);
    if (endsWith(args.out, ".zip")) {
      writeWholeFile(args.out, attn::writeZipStored(files));
    } else {
      if (::mkdir(args.out.c_str(), 0777) != 0 && errno != EEXIST)
        throw attn::InputError("cannot make the folder '" + args.out + "': " + std::strerror(errno));
      for (const attn::ZipEntry& file : files) writeWholeFile(args.out + "/" + file.name, file.contents);
    }
  }
  if (args.out == "-") return;
  std::cout << "wrote the inputs as " << format << " to " << args.out << ":\n";
  for (const attn::InputArray& a : arrays) std::cout << "  " << a.name << " " << attn::shapeTuple(a.array.shape) << "\n";
}

}  // namespace

Command addInputsCommand(CLI::App& parent) {
  auto args = std::make_shared<InputsArgs>();
  CLI::App* app = parent.add_subcommand(
      "inputs", "The inputs of a configuration (X, W_q, W_k, W_v, W_o, mask, scale) for your own attention code, as "
                ".npz, JSON or CSV");
  app->add_option("--config", args->configFile, "Config JSON ('-' = standard input)")->required();
  app->add_option("--out", args->out, "FILE.npz, FILE.json, a folder or FILE.zip (CSV), or '-' (standard output)")
      ->required();
  app->add_option("--format", args->format, "npz, json or csv (default: from --out's name)")
      ->check(CLI::IsMember({"npz", "json", "csv"}));
  addDataDirOption(app, &args->dataDir);
  return {app, [args] { runInputs(*args); }};
}

}  // namespace attncli
