// Issue 29 "Memory": the page opens gpt2 and distilgpt2 and refuses gpt2-medium with the reason (src/ui/gpt2_state.h
// kGpt2PageWeightBytes), through the page's own push interface (beginGpt2Opening → pushGpt2Bytes → finishGpt2Opening,
// the path attnlab.openModel takes). The files are written here in Hugging Face's safetensors layout:
//   distilgpt2's layout   every name under "transformer.", lm_head.weight present (tied: equal to wte), the
//                         h.N.attn.bias buffers present (read past), 6 blocks — at a tiny width (d 16, 2 heads)
//   gpt2-medium's header  24 blocks of d_model 1024: only its header is pushed; the page must refuse it there, with
//                         the sizes, before any weight is read, and keep the model that was open.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text/bpe.h"
#include "core/weights.h"
#include "models/safetensors_file.h"
#include "ui/app_state.h"
#include "ui/gpt2_state.h"
#include "ui/i18n/i18n.h"

namespace {

using json = nlohmann::json;

constexpr int kVocab = 50257;  // the real GPT-2 vocabulary: the page tokenizes with the real BPE

struct Tensor {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<float> values;  // empty: header only (the data is never pushed)
};

std::int64_t elements(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

// A safetensors file (tests/models/safetensors_file.h) of F32 tensors in order. headerOnly: the bytes of the length
// and the header alone; *fileBytes: the whole file's size all the same.
std::string safetensors(const std::vector<Tensor>& tensors, bool headerOnly, std::uint64_t* fileBytes) {
  json header = json::object();
  std::uint64_t offset = 0;
  for (const Tensor& t : tensors) {
    const std::uint64_t bytes = static_cast<std::uint64_t>(elements(t.shape)) * 4;
    header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  header["__metadata__"] = {{"format", "pt"}};
  std::string data;
  if (!headerOnly)
    for (const Tensor& t : tensors) data += modeltest::f32Bytes(t.values.data(), t.values.size());
  const std::string out = modeltest::safetensorsFile(header.dump(), data);
  *fileBytes = out.size() - data.size() + offset;
  return out;
}

// GPT-2's tensors (d × 3d Conv1D weights as Hugging Face stores them), small deterministic values (no RNG needed: the
// test is about the layout, not the numbers). withValues false: shapes only.
std::vector<Tensor> gpt2Tensors(int layers, int d, int positions, const std::string& prefix, bool withValues,
                                bool lmHead, bool maskBuffers) {
  std::vector<Tensor> out;
  std::uint32_t state = 12345;
  auto add = [&](const std::string& name, std::vector<std::int64_t> shape, float base, float spread) {
    Tensor t{name, std::move(shape), {}};
    if (withValues) {
      t.values.resize(static_cast<size_t>(elements(t.shape)));
      for (float& v : t.values) {
        state = state * 1664525u + 1013904223u;  // a fixed LCG: the same file every run
        v = base + spread * (static_cast<float>(state >> 8) / 16777216.0f - 0.5f);
      }
    }
    out.push_back(std::move(t));
  };
  add(prefix + "wte.weight", {kVocab, d}, 0, 0.2f);
  add(prefix + "wpe.weight", {positions, d}, 0, 0.05f);
  for (int l = 0; l < layers; ++l) {
    const std::string h = prefix + "h." + std::to_string(l) + ".";
    add(h + "ln_1.weight", {d}, 1, 0.1f);
    add(h + "ln_1.bias", {d}, 0, 0.1f);
    if (maskBuffers) add(h + "attn.bias", {1, 1, positions, positions}, 0.5f, 1);
    add(h + "attn.c_attn.weight", {d, 3 * d}, 0, 0.4f);
    add(h + "attn.c_attn.bias", {3 * d}, 0, 0.1f);
    add(h + "attn.c_proj.weight", {d, d}, 0, 0.4f);
    add(h + "attn.c_proj.bias", {d}, 0, 0.1f);
    add(h + "ln_2.weight", {d}, 1, 0.1f);
    add(h + "ln_2.bias", {d}, 0, 0.1f);
    add(h + "mlp.c_fc.weight", {d, 4 * d}, 0, 0.4f);
    add(h + "mlp.c_fc.bias", {4 * d}, 0, 0.1f);
    add(h + "mlp.c_proj.weight", {4 * d, d}, 0, 0.2f);
    add(h + "mlp.c_proj.bias", {d}, 0, 0.1f);
  }
  add(prefix + "ln_f.weight", {d}, 1, 0.1f);
  add(prefix + "ln_f.bias", {d}, 0, 0.1f);
  if (lmHead) {
    Tensor head = out.front();  // tied: lm_head.weight is wte, as distilgpt2's file holds it
    head.name = "lm_head.weight";
    out.push_back(std::move(head));
  }
  return out;
}

std::string configJson(const char* name, int layers, int heads, int d, int positions) {
  return json{{"_name_or_path", name},     {"architectures", {"GPT2LMHeadModel"}}, {"model_type", "gpt2"},
              {"n_layer", layers},         {"n_head", heads},                      {"n_embd", d},
              {"n_positions", positions},  {"n_ctx", positions},                   {"vocab_size", kVocab},
              {"activation_function", "gelu_new"}, {"layer_norm_epsilon", 1e-5}}
      .dump();
}

// The page's push interface, in 1 MB slices as attnlab.openModel pushes (16 MB there).
std::string open(ui::AppState& s, const std::string& bytes, std::uint64_t fileBytes,
                 const std::string& config, bool finish) {
  std::string err = ui::beginGpt2Opening(s, "model.safetensors", fileBytes, config);
  if (!err.empty()) return err;
  for (size_t at = 0; at < bytes.size(); at += 1 << 20) {
    err = ui::pushGpt2Bytes(s, bytes.data() + at, std::min<size_t>(1 << 20, bytes.size() - at));
    if (!err.empty()) return err;
  }
  if (!finish) return "";
  err = ui::finishGpt2Opening(s);
  for (int frame = 0; err.empty() && ui::gpt2RunUnderWay(s) && frame < 10000; ++frame) err = ui::advanceGpt2Run(s);
  return err;
}

class Gpt2OpenLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    ui::setLanguage(ui::Lang::En);
    std::ifstream in(std::string(ATTNLAB_TEST_DATA_DIR) + "/gpt2-bpe.bin", std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << "build the data files (target attnlab_data): " << ATTNLAB_TEST_DATA_DIR;
    state.data.gpt2 = attn::Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
  }
  ui::AppState state;
};

}  // namespace

TEST_F(Gpt2OpenLimits, DistilGpt2sLayoutOpens) {
  // distilgpt2: 6 blocks, "transformer." names, lm_head.weight and the attn.bias buffers in the file.
  const std::vector<Tensor> tensors = gpt2Tensors(6, 16, 64, "transformer.", true, true, true);
  std::uint64_t fileBytes = 0;
  const std::string bytes = safetensors(tensors, false, &fileBytes);
  ASSERT_EQ(bytes.size(), fileBytes);
  const std::string err = open(state, bytes, fileBytes, configJson("distilgpt2", 6, 2, 16, 64), true);
  ASSERT_EQ(err, "");
  const ui::Gpt2State* g = ui::openGpt2State(state);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->model().settings.blocks, 6);
  EXPECT_EQ(g->model().settings.heads, 2);
  const json model = ui::gpt2ToJson(state);
  EXPECT_EQ(model["n_layer"], 6);
  EXPECT_EQ(model["tokens"].size(), 13u) << model["tokens"].dump();  // the paper's sentence, 13 GPT-2 tokens
  EXPECT_EQ(model["predictions"].size(), 13u);
  EXPECT_EQ(ui::showGpt2Layer(state, 5), "");  // the last of its six blocks
  EXPECT_EQ(ui::gpt2ToJson(state)["layer"], 5);
  // The block's W_q … W_o are the checkpoint's: learned in training (a pinned W_q cell said "given explicitly (a
  // Config JSON file or setState), not drawn from the seed").
  EXPECT_EQ(attn::attentionWeightsOrigin(state.pipeline.config()), attn::WeightOrigin::Trained);
  EXPECT_EQ(attn::weightOrigin(state.pipeline.config(), "W_q", 0, 0), attn::WeightOrigin::Trained);
}

TEST_F(Gpt2OpenLimits, Gpt2MediumIsRefusedAtItsHeaderWithTheSizesAndTheOpenModelStays) {
  // First a small model is open …
  std::uint64_t smallBytes = 0;
  const std::string small = safetensors(gpt2Tensors(2, 16, 64, "", true, false, false), false, &smallBytes);
  ASSERT_EQ(open(state, small, smallBytes, configJson("tiny", 2, 2, 16, 64), true), "");
  const std::string sha = ui::openGpt2State(state)->sha256();
  // … then gpt2-medium's header: 24 blocks of d_model 1024 (355M parameters, 1.42 GB of float32).
  std::uint64_t mediumBytes = 0;
  const std::string header = safetensors(gpt2Tensors(24, 1024, 1024, "", false, false, true), true, &mediumBytes);
  EXPECT_GT(mediumBytes, std::uint64_t(1400) << 20);
  const std::string err = open(state, header, mediumBytes, configJson("gpt2-medium", 24, 16, 1024, 1024), false);
  EXPECT_NE(err.find("too large for this page"), std::string::npos) << err;
  EXPECT_NE(err.find("24 blocks of d_model 1024"), std::string::npos) << err;
  EXPECT_NE(err.find("at most 1074 MB"), std::string::npos) << err;  // kGpt2PageWeightBytes = 1 GiB
  EXPECT_EQ(ui::gpt2OpeningJson(state)["reading"], false);             // nothing of it is kept
  ASSERT_NE(ui::openGpt2State(state), nullptr);                        // the model that was open stays
  EXPECT_EQ(ui::openGpt2State(state)->sha256(), sha);
}
