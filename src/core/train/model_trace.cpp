// A trained model's blocks as Configs and Traces (see model_trace.h).
#include "core/train/model_trace.h"

#include <algorithm>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/text/tokenizer.h"

namespace attn::train {

namespace {

std::string knownTokens(const std::vector<std::string>& vocab) {
  std::string out;
  const size_t shown = std::min<size_t>(vocab.size(), 12);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + vocab[i];
  if (vocab.size() > shown) out += ", … (" + std::to_string(vocab.size()) + " tokens)";
  return out;
}

int idOf(const std::vector<std::string>& vocab, const std::string& token) {
  for (size_t i = 0; i < vocab.size(); ++i)
    if (vocab[i] == token) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string joinTokens(const std::vector<std::string>& tokens, size_t from) {
  std::string out;
  for (size_t i = from; i < tokens.size(); ++i) out += (out.empty() ? "" : " ") + tokens[i];
  return out;
}

std::vector<int> tokenizeForModel(const std::string& text, const std::vector<std::string>& vocab,
                                  const std::string& what) {
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < vocab.size(); ++i) index.emplace(vocab[i], static_cast<int>(i));
  std::vector<int> ids;
  std::vector<std::string> unknown;
  auto addPiece = [&](const std::string& piece) {
    const auto whole = index.find(piece);
    if (whole != index.end()) {
      ids.push_back(whole->second);
      return;
    }
    Vocabulary scratch;  // the walkthrough's word tokenizer splits punctuation off ("b?" -> b ?)
    TokenizeOptions options;
    for (const Token& t : tokenize(piece, options, scratch).tokens) {
      const auto it = index.find(t.text);
      if (it != index.end()) ids.push_back(it->second);
      else if (std::find(unknown.begin(), unknown.end(), t.text) == unknown.end()) unknown.push_back(t.text);
    }
  };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    size_t end = i;
    while (end < text.size() && !(text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r'))
      ++end;
    if (end > i) addPiece(text.substr(i, end - i));
    i = end;
  }
  if (!unknown.empty()) {
    std::string words;
    for (size_t k = 0; k < unknown.size() && k < 5; ++k) words += (k ? ", \"" : "\"") + unknown[k] + "\"";
    if (unknown.size() > 5) words += " and " + std::to_string(unknown.size() - 5) + " more";
    throw InputError(what + ": " + words + (unknown.size() == 1 ? " is" : " are") +
                         " not in the model's vocabulary (known tokens: " + knownTokens(vocab) + ")",
                     unknown.size() == 1 ? "NotInVocabOne" : "NotInVocabMany", {what, words, knownTokens(vocab)});
  }
  if (ids.empty())
    throw InputError(what + " has no tokens (known tokens: " + knownTokens(vocab) + ")", "ModelNoTokens",
                     {what, knownTokens(vocab)});
  return ids;
}

Config layerConfig(const BlockTrace& block, const std::vector<std::string>& keyTokens,
                   const std::vector<std::string>& queryTokens, const LayerSource& source) {
  const Trace& engine = block.trace;
  Config c = engine.config;  // d_model, heads, d_k, d_v, mask, scale
  c.Wq = engine.Wq;
  c.Wk = engine.Wk;
  c.Wv = engine.Wv;
  c.Wo = engine.Wo;
  // The model's tokens label the rows, with the model's ids: its vocabulary splits the text at spaces, so "<bos>"
  // stays one token.
  if (source.keyVocabulary) c.vocabulary = *source.keyVocabulary;
  if (source.queryVocabulary && block.cross && *source.queryVocabulary != c.vocabulary)
    c.queryVocabulary = *source.queryVocabulary;
  c.positional = source.positions != nullptr;
  if (source.positions) c.positions = *source.positions;  // (max_len,d_model): the engine's own PE
  c.text = joinTokens(keyTokens);
  c.explicitWeightsOrigin = WeightOrigin::Trained;  // the sentences about these weights say "trained"
  if (block.cross) {
    c.queryText = joinTokens(queryTokens);
    c.X = engine.X;    // (L_kv,d_model): the encoder's output (keys/values' source)
    c.Xq = engine.Xq;  // (L_q,d_model): the decoder stream (queries' source)
  } else if (source.embedding && source.keyVocabulary) {
    // The stack's first block: X = E[ids] + PE, computed by the walkthrough from the model's rows (x_0 bit for bit).
    for (const std::string& token : keyTokens) {
      const int id = idOf(*source.keyVocabulary, token);
      const auto row = source.embedding->row(id);  // E[id] : (1,d_model)
      c.embeddingTable[token] = std::vector<double>(row.data(), row.data() + row.size());
    }
  } else {
    c.X = engine.X;  // (L_kv,d_model): the residual stream entering the block
  }
  return c;
}

ModelTrace traceModel(const SavedModel& saved, const std::vector<int>& source, const std::vector<int>& input) {
  const ModelConfig& mc = saved.config;
  const int maxLength = mc.maxLength;
  if (static_cast<int>(input.size()) > maxLength)
    throw InputError("the input has " + std::to_string(input.size()) + " tokens; this model takes at most " +
                         std::to_string(maxLength),
                     "ModelInputTooLong", {std::to_string(input.size()), std::to_string(maxLength)});
  if (mc.encoderDecoder && static_cast<int>(source.size()) > maxLength)
    throw InputError("the source has " + std::to_string(source.size()) + " tokens; this model takes at most " +
                         std::to_string(maxLength),
                     "ModelSourceTooLong", {std::to_string(source.size()), std::to_string(maxLength)});
  const Model<double> model(mc, saved.params);
  Example ex;
  ex.source = source;
  ex.input = input;
  ex.target.assign(input.size(), 0);
  ex.lossMask.assign(input.size(), 0);  // no position counts: forward only
  ForwardCache<double> cache;
  model.forward(ex, cache);

  ModelTrace out;
  for (int id : source) out.sourceTokens.push_back(saved.sourceVocab[static_cast<size_t>(id)]);
  for (int id : input) out.tokens.push_back(saved.vocab[static_cast<size_t>(id)]);
  for (Eigen::Index t = 0; t < cache.probs.rows(); ++t) {
    Eigen::Index best = 0;
    for (Eigen::Index v = 1; v < cache.probs.cols(); ++v)
      if (cache.logits(t, v) > cache.logits(t, best)) best = v;
    out.predictions.push_back({static_cast<int>(t), out.tokens[static_cast<size_t>(t)],
                               saved.vocab[static_cast<size_t>(best)], cache.probs(t, best)});
  }
  // Blocks in traces() order: the encoder's (encoder–decoder), then the decoder's (or only) stack; the first block
  // of each stack reads its embedding.
  const size_t encoderBlocks = mc.encoderDecoder ? static_cast<size_t>(mc.encoderDepth()) : 0;
  std::vector<BlockTrace> blocks = model.traces(cache);
  for (size_t b = 0; b < blocks.size(); ++b) {
    BlockTrace& block = blocks[b];
    const bool encoderBlock = b < encoderBlocks;
    const std::vector<std::string>& keys = (encoderBlock || block.cross) ? out.sourceTokens : out.tokens;
    const std::vector<std::string>& queries = encoderBlock ? out.sourceTokens : out.tokens;
    LayerSource source;
    source.keyVocabulary = (encoderBlock || block.cross) ? &saved.sourceVocab : &saved.vocab;
    source.queryVocabulary = encoderBlock ? &saved.sourceVocab : &saved.vocab;
    if (b == 0 || b == encoderBlocks) source.embedding = encoderBlock ? &saved.params.Esrc : &saved.params.E;
    if (mc.positional) source.positions = &model.positions();
    out.layers.push_back({block.name, block.cross, computeTrace(layerConfig(block, keys, queries, source))});
    out.blocks.push_back(std::move(block.trace));
  }
  return out;
}

std::vector<int> greedyDecode(const SavedModel& saved, const std::vector<int>& source) {
  const int bos = idOf(saved.vocab, "<bos>"), eos = idOf(saved.vocab, "<eos>");
  if (bos < 0 || eos < 0)
    throw InputError("this model's vocabulary has no <bos>/<eos>: give the decoder's input with --text");
  const Model<double> model(saved.config, saved.params);
  std::vector<int> input = {bos};
  ForwardCache<double> cache;
  while (static_cast<int>(input.size()) < saved.config.maxLength) {
    Example ex;
    ex.source = source;
    ex.input = input;
    ex.target.assign(input.size(), 0);
    ex.lossMask.assign(input.size(), 0);
    model.forward(ex, cache);
    const Eigen::Index last = cache.logits.rows() - 1;
    Eigen::Index best = 0;
    for (Eigen::Index v = 1; v < cache.logits.cols(); ++v)
      if (cache.logits(last, v) > cache.logits(last, best)) best = v;
    if (best == eos || best == bos) break;
    input.push_back(static_cast<int>(best));
  }
  return input;
}

std::string modelTraceToJson(const SavedModel& saved, const ModelTrace& t, int indent) {
  using json = nlohmann::ordered_json;  // keys in the documented order
  json j = json::object();
  j["task"] = saved.task;
  if (saved.config.encoderDecoder) j["source_tokens"] = t.sourceTokens;
  j["tokens"] = t.tokens;
  json predictions = json::array();
  for (const Prediction& p : t.predictions)
    predictions.push_back(
        {{"position", p.position}, {"input", p.input}, {"token", p.token}, {"probability", p.probability}});
  j["predictions"] = std::move(predictions);
  json layers = json::array();
  for (const BlockTrace& layer : t.layers)
    layers.push_back(json::parse(blockEntryJson(layer.name, layer.cross, layer.trace)));
  j["layers"] = std::move(layers);
  return j.dump(indent);
}

}  // namespace attn::train
