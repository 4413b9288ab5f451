// The architecture table (core/models/architecture.h), the checkpoint sniff (checkpoint.h) and the model run
// (model_run.h): every row's tensors have somewhere to go in the one model type, GPT-2's names are Hugging Face's,
// a header picks its row or is refused with the reason, and a run advanced a piece at a time has the bits of one run
// at once.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "core/errors.h"
#include "core/models/architecture.h"
#include "core/models/checkpoint.h"
#include "core/models/model_run.h"
#include "core/models/pretrained_model.h"
#include "random_gpt2.h"

using namespace attn;
using namespace attn::models;

namespace {

TEST(Architecture, EveryRowsTensorsHaveASlotInTheModel) {
  for (const Architecture& arch : architectures()) {
    PretrainedModel model;
    model.arch = &arch;
    model.blocks.resize(1);
    std::set<Slot> seen;
    for (const TensorName& t : arch.tensors) {
      EXPECT_TRUE(seen.insert(t.slot).second) << arch.name << ": slot of " << t.name << " written twice";
      const SlotTarget target = slotTarget(model, t.slot, 0);
      const int places = (target.row != nullptr) + (target.packed != nullptr) + (target.transposed != nullptr);
      EXPECT_EQ(places, 1) << arch.name << ": " << t.name;
      EXPECT_EQ(isBlockSlot(t.slot), std::string(t.name).find("{N}") != std::string::npos) << t.name;
      EXPECT_FALSE(t.shape.empty()) << t.name;
    }
    EXPECT_EQ(findArchitecture(arch.name), &arch);
    for (const char* type : arch.modelTypes) EXPECT_EQ(findArchitecture(type), &arch);
    EXPECT_TRUE(tensorFor(arch, Slot::TokenEmbedding)) << arch.name << " has no token embedding";
  }
  EXPECT_EQ(findArchitecture("no-such-model"), nullptr);
}

TEST(Architecture, Gpt2sBlockNamesAreHuggingFaces) {
  const Architecture& gpt2 = architecture(Arch::Gpt2);
  std::vector<std::string> block;
  for (const TensorName& t : gpt2.tensors)
    if (isBlockSlot(t.slot)) block.push_back(tensorName(t, 3));
  const std::vector<std::string> want = {
      "h.3.ln_1.weight",      "h.3.ln_1.bias",          "h.3.attn.c_attn.weight", "h.3.attn.c_attn.bias",
      "h.3.attn.c_proj.weight", "h.3.attn.c_proj.bias", "h.3.ln_2.weight",        "h.3.ln_2.bias",
      "h.3.mlp.c_fc.weight",  "h.3.mlp.c_fc.bias",      "h.3.mlp.c_proj.weight",  "h.3.mlp.c_proj.bias"};
  EXPECT_EQ(block, want);
  EXPECT_EQ(gpt2.norm, NormPlacement::BeforeSublayer);
  EXPECT_EQ(gpt2.mask, AttentionMask::Causal);
  EXPECT_EQ(gpt2.weights, WeightLayout::InOut);
  EXPECT_EQ(gpt2.head, OutputHead::NextToken);
  EXPECT_TRUE(gpt2.fusedQkv);
  EXPECT_TRUE(tensorFor(gpt2, Slot::HeadWeight)->optional) << "the output layer is tied to wte unless stored";
}

std::map<std::string, TensorInfo> header(const std::vector<std::string>& names) {
  std::map<std::string, TensorInfo> out;
  for (const std::string& n : names) {
    TensorInfo t;
    t.name = n;
    t.shape = {4, 4};
    out[n] = t;
  }
  return out;
}

std::string refusal(const std::map<std::string, TensorInfo>& tensors, const ConfigFile& config) {
  try {
    sniffCheckpoint(tensors, config);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Checkpoint, TheHeaderPicksTheRowAndThePrefix) {
  const Sniffed plain = sniffCheckpoint(header({"wte.weight", "h.0.ln_1.weight"}), ConfigFile{});
  EXPECT_EQ(plain.arch, &architecture(Arch::Gpt2));
  EXPECT_EQ(plain.prefix, "");
  const Sniffed prefixed = sniffCheckpoint(header({"transformer.wte.weight"}), parseConfigFile(R"({"model_type": "gpt2"})", "config.json"));
  EXPECT_EQ(prefixed.arch, &architecture(Arch::Gpt2));
  EXPECT_EQ(prefixed.prefix, "transformer.");
}

TEST(Checkpoint, RefusalsSayWhy) {
  const std::string bertKeys = refusal(header({"embeddings.word_embeddings.weight", "encoder.layer.0.attention.self.query.weight"}), ConfigFile{});
  EXPECT_NE(bertKeys.find("not a GPT-2 checkpoint: no tensor \"wte.weight\""), std::string::npos) << bertKeys;
  EXPECT_NE(bertKeys.find("these are BERT's keys"), std::string::npos) << bertKeys;
  EXPECT_NE(bertKeys.find("found embeddings.word_embeddings.weight"), std::string::npos) << bertKeys;
  const std::string type = refusal(header({"wte.weight"}), parseConfigFile(R"({"model_type": "llama"})", "config.json"));
  EXPECT_NE(type.find("config.json is for a \"llama\" model; this reads gpt2"), std::string::npos) << type;
  EXPECT_NE(refusal(header({}), ConfigFile{}).find("found no tensors"), std::string::npos);
  EXPECT_THROW(parseConfigFile("[1, 2]", "config.json"), InputError);
  EXPECT_THROW(parseConfigFile("{", "config.json"), InputError);
}

TEST(Checkpoint, SettingsComeFromTheRowsKeys) {
  const ModelSettings s = readSettings(
      architecture(Arch::Gpt2),
      parseConfigFile(R"({"n_layer": 3, "n_head": 4, "n_embd": 32, "layer_norm_epsilon": 1e-6,
                          "activation_function": "gelu"})", "config.json"));
  EXPECT_EQ(s.blocks, 3);
  EXPECT_EQ(s.heads, 4);
  EXPECT_EQ(s.width, 32);
  EXPECT_EQ(s.epsilon, 1e-6);
  EXPECT_EQ(s.activation, Activation::GeluErf);
  EXPECT_THROW(readSettings(architecture(Arch::Gpt2), parseConfigFile(R"({"n_layer": "3"})", "config.json")), InputError);
  EXPECT_THROW(readSettings(architecture(Arch::Gpt2), parseConfigFile(R"({"activation_function": "relu"})", "c")), InputError);
}

// Bytes as ids (GPT-2's vocabulary size, so the random GPT-2 model takes it).
class ByteTokenizer : public ModelTokenizer {
 public:
  TokenizerKind kind() const override { return TokenizerKind::Word; }
  int vocabularySize() const override { return 50257; }
  std::vector<int> specialIds() const override { return {50256}; }
  std::vector<int> encode(std::string_view text) const override {
    std::vector<int> ids;
    for (unsigned char c : text) ids.push_back(c);
    return ids;
  }
  std::string pieceText(int id) const override { return std::string(1, static_cast<char>(id & 0xff)); }
  std::string pieceBytes(int id) const override { return pieceText(id); }
};

void expectSameBits(const MatrixT<float>& a, const MatrixT<float>& b, const std::string& what) {
  ASSERT_EQ(a.rows(), b.rows()) << what;
  ASSERT_EQ(a.cols(), b.cols()) << what;
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())), 0) << what;
}

TEST(ModelRun, SlicedRunHasTheBitsOfARunAtOnce) {
  auto model = std::make_shared<const PretrainedModel>(modeltest::randomGpt2Model(7, {2, 2, 16, 64, 50257}));
  auto tokenizer = std::make_shared<const ByteTokenizer>();
  const std::string text = "Attention, sliced.";
  const ModelResult whole = runModel(model, tokenizer, text, 128);
  ModelRun run(model, tokenizer, text, 1, 128, Pieces{1, 7});
  int calls = 0;
  double last = -1;
  while (!run.advance(0)) {  // a deadline already past: one piece a call
    EXPECT_GE(run.fraction(), last) << "progress never goes back";
    last = run.fraction();
    ++calls;
  }
  EXPECT_GT(calls, 20) << "a piece a call";
  EXPECT_EQ(run.fraction(), 1.0);
  std::unique_ptr<Config> config = run.takeConfig();
  const ModelResult sliced = run.takeResult();
  ASSERT_TRUE(config);
  EXPECT_EQ(config->heads, 2);
  EXPECT_EQ(sliced.input.ids, whole.input.ids);
  EXPECT_EQ(sliced.input.tokens.size(), text.size());
  ASSERT_EQ(sliced.activations.blocks.size(), 2u);
  for (size_t b = 0; b < 2; ++b) {
    const BlockActivations &p = sliced.activations.blocks[b], &w = whole.activations.blocks[b];
    expectSameBits(p.attentionInput, w.attentionInput, "attention input");
    expectSameBits(p.attention, w.attention, "attention");
    expectSameBits(p.mlpHidden, w.mlpHidden, "mlp hidden");
    expectSameBits(p.output, w.output, "output");
    for (size_t h = 0; h < p.A.size(); ++h) expectSameBits(p.A[h], w.A[h], "A");
  }
  expectSameBits(sliced.activations.logits, whole.activations.logits, "logits");
  ASSERT_EQ(sliced.bestNext.size(), text.size());
  for (size_t t = 0; t < text.size(); ++t) {
    const TopToken want = topTokens(whole.activations.logits, static_cast<Eigen::Index>(t), 1).at(0);
    EXPECT_EQ(sliced.bestNext[t].id, want.id);
    EXPECT_EQ(sliced.bestNext[t].probability, want.probability);
  }
}

TEST(ModelRun, BadTextsAreRefusedBeforeAnyWork) {
  auto model = std::make_shared<const PretrainedModel>(modeltest::randomGpt2Model(7, {1, 2, 16, 8, 50257}));
  auto tokenizer = std::make_shared<const ByteTokenizer>();
  EXPECT_THROW(ModelRun(model, tokenizer, "", 0, 128), InputError);
  EXPECT_THROW(ModelRun(model, tokenizer, "nine byte", 0, 128), InputError) << "more tokens than positions";
  EXPECT_THROW(ModelRun(model, tokenizer, "four", 0, 3), InputError) << "more tokens than the page shows";
  try {
    ModelRun(model, tokenizer, "", 0, 128);
  } catch (const InputError& e) {
    EXPECT_EQ(e.id(), "TypeInput");
  }
}

}  // namespace
