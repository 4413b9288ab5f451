// `attnlab analogy A B C [--top N] [--dims K]`: the words closest to A − B + C in GloVe (king − man + woman ≈
// queen), by cosine on unit vectors (3CosAdd, as word2vec and gensim), A, B and C themselves excluded.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/data/glove.h"

namespace attncli {

// Shared with cmd_similar.cpp.
int gloveIndexOf(const attn::GloveVectors& glove, const std::string& word);
void checkGloveDims(const attn::GloveVectors& glove, int dims);
nlohmann::ordered_json neighboursJson(const std::vector<attn::GloveNeighbour>& list);
std::string neighboursText(const std::vector<attn::GloveNeighbour>& list);

namespace {

struct AnalogyArgs {
  std::vector<std::string> words;  // A B C
  int top = 5;
  int dims = attn::kGloveDims;
  std::string format = "text";
  std::string dataDir;
};

void runAnalogy(const AnalogyArgs& args) {
  if (args.words.size() != 3)
    throw attn::InputError("analogy takes three words A B C for A - B + C, e.g. attnlab analogy king man woman; got " +
                           std::to_string(args.words.size()));
  const auto glove = loadGlove(args.dataDir);
  checkGloveDims(*glove, args.dims);
  const int a = gloveIndexOf(*glove, args.words[0]);
  const int b = gloveIndexOf(*glove, args.words[1]);
  const int c = gloveIndexOf(*glove, args.words[2]);
  const std::vector<attn::GloveNeighbour> list = glove->analogy(a, b, c, args.top, args.dims);
  const std::string expression = glove->word(a) + " - " + glove->word(b) + " + " + glove->word(c);
  if (args.format == "json") {
    const nlohmann::ordered_json out = {{"a", glove->word(a)},    {"b", glove->word(b)}, {"c", glove->word(c)},
                                        {"expression", expression}, {"dims", args.dims}, {"top", args.top},
                                        {"method", "3CosAdd: cosine with unit(a) - unit(b) + unit(c); a, b, c excluded"},
                                        {"source", glove->source()}, {"answers", neighboursJson(list)}};
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << glove->word(a) << " \u2212 " << glove->word(b) << " + " << glove->word(c) << " \u2248  (cosine, GloVe "
            << args.dims << " of " << glove->dims() << " dims, the three words excluded)\n"
            << neighboursText(list);
}

}  // namespace

Command addAnalogyCommand(CLI::App& parent) {
  auto args = std::make_shared<AnalogyArgs>();
  CLI::App* app = parent.add_subcommand("analogy", "GloVe analogies: the words closest to A - B + C");
  app->add_option("words", args->words, "A B C (king man woman)")->required()->expected(3);
  app->add_option("--top", args->top, "How many answers")->check(integerIn(1, 1000))->capture_default_str();
  app->add_option("--dims", args->dims, "Use the first K principal coordinates (K = d_model; 100 = all)")
      ->check(integerIn(1, attn::kGloveDims))->capture_default_str();
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  return {app, [args] { runAnalogy(*args); }};
}

}  // namespace attncli
