// Prints what core/models/analysis.h computes on a checkpoint, as JSON, for gpt2_analysis_numpy.py to check
// against numpy: per block and row the layer norm's μ, σ² and output (and whether that output, rounded to float, is
// the forward's ln_1 row bit for bit); every (layer, head) ranked for one (query, key) with and without the first
// token; the sinks; the top 10 next tokens at every position.
//   gpt2_analysis_dump MODEL.safetensors QUERY KEY ID [ID …]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/pretrained_files.h"
#include "core/models/forward.h"
#include "core/models/pretrained_model.h"
#include "core/models/analysis.h"

using namespace attn::models;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: gpt2_analysis_dump MODEL.safetensors QUERY KEY ID [ID …]\n";
    return 2;
  }
  const PretrainedModel model = attncli::loadPretrainedFiles(attncli::findPretrainedFiles(argv[1], ""));
  const int query = std::atoi(argv[2]), key = std::atoi(argv[3]);
  std::vector<int> ids;
  for (int a = 4; a < argc; ++a) ids.push_back(std::atoi(argv[a]));
  const Activations run = runForward(model, ids, /*keepBlocks=*/true);
  nlohmann::json out;
  bool lnBitsEqual = true;
  for (size_t l = 0; l < run.blocks.size(); ++l) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index t = 0; t < run.blocks[l].input.rows(); ++t) {
      const LayerNormRow r = layerNormRow(run.blocks[l].input, t, model.blocks[l].attnNormWeight, model.blocks[l].attnNormBias,
                                          model.settings.epsilon);
      for (size_t j = 0; j < r.output.size(); ++j)
        if (static_cast<float>(r.output[j]) != run.blocks[l].attentionInput(t, static_cast<Eigen::Index>(j))) lnBitsEqual = false;
      rows.push_back({{"mean", r.mean}, {"variance", r.variance}, {"output", r.output}});
    }
    out["ln1"].push_back(rows);
  }
  out["ln1_bits_equal"] = lnBitsEqual;
  for (bool ignore : {false, true}) {
    nlohmann::json ranked = nlohmann::json::array();
    for (const HeadWeight& w : rankHeads(run, query, key, ignore)) ranked.push_back({w.layer, w.head, w.weight});
    out[ignore ? "ranked_ignore_first" : "ranked"] = ranked;
  }
  const SinkSummary s = attentionSinks(run);
  out["sinks"] = {{"first_weight", s.firstWeight}, {"over_half", s.overHalf}, {"sentence", sinkSentence(s)}};
  for (int t = 0; t < static_cast<int>(ids.size()); ++t) {
    nlohmann::json top = nlohmann::json::array();
    for (const TopToken& tok : nextTokens(run, t, 10)) top.push_back({tok.id, tok.probability});
    out["top10"].push_back(top);
  }
  std::cout << out.dump() << "\n";
  return 0;
}
