// `attnlab similar WORD [--top N] [--dims K]`: GloVe's nearest neighbours of a word by cosine, in its first K
// principal coordinates (K = d_model; 100 = the whole vector). Shows why "closer vectors have higher dot products"
// means something with real embeddings, and how similarity degrades as d_model shrinks.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/data/glove.h"

namespace attncli {

namespace {

struct SimilarArgs {
  std::string word;
  int top = 10;
  int dims = attn::kGloveDims;
  std::string format = "text";
  std::string dataDir;
};

}  // namespace

// The row of `word` in GloVe, or bad input naming what the file holds.
int gloveIndexOf(const attn::GloveVectors& glove, const std::string& word) {
  const int index = glove.find(word);
  if (index < 0)
    throw attn::InputError("GloVe has no vector for '" + word + "' (the file holds " + std::to_string(glove.count()) +
                           " lower-case words of " + glove.source() + ": the most frequent ones and the presets')");
  return index;
}

void checkGloveDims(const attn::GloveVectors& glove, int dims) {
  if (dims < 1 || dims > glove.dims())
    throw attn::InputError("--dims must be between 1 and " + std::to_string(glove.dims()) +
                           " (GloVe vectors have " + std::to_string(glove.dims()) + " dimensions), got " +
                           std::to_string(dims));
}

nlohmann::ordered_json neighboursJson(const std::vector<attn::GloveNeighbour>& list) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const attn::GloveNeighbour& n : list) out.push_back({{"word", n.word}, {"cosine", n.cosine}, {"rank", n.index}});
  return out;
}

std::string neighboursText(const std::vector<attn::GloveNeighbour>& list) {
  int width = 4;
  for (const attn::GloveNeighbour& n : list) width = std::max(width, displayWidth(n.word));
  std::string out;
  for (size_t i = 0; i < list.size(); ++i)
    out += padLeft(std::to_string(i + 1), 3) + "  " + padRight(list[i].word, width) + "  " +
           fixedDouble(list[i].cosine, 4) + "\n";
  return out;
}

namespace {

void runSimilar(const SimilarArgs& args) {
  const auto glove = loadGlove(args.dataDir);
  checkGloveDims(*glove, args.dims);
  const int index = gloveIndexOf(*glove, args.word);
  const std::vector<attn::GloveNeighbour> list = glove->neighbours(index, args.top, args.dims);
  if (args.format == "json") {
    const nlohmann::ordered_json out = {{"word", glove->word(index)}, {"dims", args.dims}, {"top", args.top},
                                        {"source", glove->source()}, {"neighbours", neighboursJson(list)}};
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << "nearest to \"" << glove->word(index) << "\" by cosine, GloVe " << args.dims << " of "
            << glove->dims() << " dims (" << glove->source() << ")\n"
            << neighboursText(list);
}

}  // namespace

Command addSimilarCommand(CLI::App& parent) {
  auto args = std::make_shared<SimilarArgs>();
  CLI::App* app = parent.add_subcommand("similar", "GloVe's nearest neighbours of a word by cosine");
  app->add_option("word", args->word, "The word (looked up lower-cased)")->required();
  app->add_option("--top", args->top, "How many neighbours")->check(integerIn(1, 1000))->capture_default_str();
  app->add_option("--dims", args->dims, "Compare the first K principal coordinates (K = d_model; 100 = all)")
      ->check(integerIn(1, attn::kGloveDims))->capture_default_str();
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  return {app, [args] { runSimilar(*args); }};
}

}  // namespace attncli
