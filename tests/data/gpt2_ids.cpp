// Test helper for tests/data/gpt2_oracle.mjs: reads a JSON array of strings on stdin and prints, one JSON array,
// the GPT-2 ids the core gives each (the same code path as `attnlab tokenize --tokenizer gpt2`), so the whole corpus
// is checked in one process.   gpt2_ids_tests DATA_DIR < strings.json
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text/bpe.h"
#include "core/text/tokenizer.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gpt2_ids_tests DATA_DIR < strings.json\n";
    return 2;
  }
  std::ifstream in(std::string(argv[1]) + "/gpt2-bpe.bin", std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    std::cerr << "gpt2_ids_tests: no gpt2-bpe.bin in " << argv[1] << "\n";
    return 1;
  }
  const auto table = attn::Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
  nlohmann::json out = nlohmann::json::array();
  for (const auto& text : nlohmann::json::parse(std::cin)) {
    attn::Vocabulary vocab;
    attn::TokenizeOptions options;
    options.kind = attn::TokenizerKind::Gpt2;
    options.gpt2 = table.get();
    nlohmann::json ids = nlohmann::json::array();
    for (const attn::Token& t : attn::tokenize(text.get<std::string>(), options, vocab).tokens) ids.push_back(t.id);
    out.push_back(ids);
  }
  std::cout << out.dump() << "\n";
  return 0;
}
