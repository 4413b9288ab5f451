// GPT-2 on the engine's kernels (see gpt2.h).
#include "core/models/gpt2.h"

#include <array>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "core/errors.h"
#include "core/kernels/softmax.h"
#include "core/models/gpt2_forward.h"
#include "core/text/bpe.h"

namespace attn::models {

namespace {


bool isFile(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool isDirectory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}


std::string readSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  std::ostringstream out;
  out << in.rdbuf();
  std::string text = out.str();
  if (text.size() > (1u << 20)) throw InputError("'" + path + "' is larger than 1 MB: not a config.json");
  return text;
}

}  // namespace

// A block's tensors by their names after "h.N." (Hugging Face's), and the member each is read into. The linear
// layers' weights (the W of x·W + b: kernels::linear in packed_weight.h) are packed.
const std::array<Gpt2BlockTensor, 12> kGpt2BlockTensors = {{
    {"ln_1.weight", &Gpt2Block::ln1Gamma, nullptr},
    {"ln_1.bias", &Gpt2Block::ln1Beta, nullptr},
    {"attn.c_attn.weight", nullptr, &Gpt2Block::attnWeight},
    {"attn.c_attn.bias", &Gpt2Block::attnBias, nullptr},
    {"attn.c_proj.weight", nullptr, &Gpt2Block::attnProjWeight},
    {"attn.c_proj.bias", &Gpt2Block::attnProjBias, nullptr},
    {"ln_2.weight", &Gpt2Block::ln2Gamma, nullptr},
    {"ln_2.bias", &Gpt2Block::ln2Beta, nullptr},
    {"mlp.c_fc.weight", nullptr, &Gpt2Block::fcWeight},
    {"mlp.c_fc.bias", &Gpt2Block::fcBias, nullptr},
    {"mlp.c_proj.weight", nullptr, &Gpt2Block::mlpProjWeight},
    {"mlp.c_proj.bias", &Gpt2Block::mlpProjBias, nullptr},
}};

int64_t Gpt2Model::parameterCount() const {
  int64_t n = wte.size() + wpe.size() + lnfGamma.size() + lnfBeta.size() + lmHead.size();
  for (const Gpt2Block& b : blocks)
    for (const Gpt2BlockTensor& t : kGpt2BlockTensors) n += t.row ? (b.*t.row).size() : (b.*t.packed).size();
  return n;
}

// loadGpt2: gpt2_loader.cpp (the push loader the page uses too).

Gpt2Files findGpt2Files(const std::string& path, const std::string& configPath) {
  Gpt2Files files;
  std::string folder;
  if (isDirectory(path)) {
    folder = path;
    files.weights = path + "/model.safetensors";
    if (!isFile(files.weights))
      throw InputError("--model " + path + " is a folder without model.safetensors (give the folder of a Hugging "
                       "Face GPT-2 checkpoint, or the .safetensors file)");
  } else if (isFile(path)) {
    files.weights = path;
    const size_t slash = path.rfind('/');
    folder = slash == std::string::npos ? "." : path.substr(0, slash);
  } else {
    throw InputError("--model " + path + ": no such file or folder");
  }
  if (!configPath.empty()) {
    if (!isFile(configPath)) throw InputError("--config " + configPath + ": no such file");
    files.config = configPath;
  } else if (isFile(folder + "/config.json")) {
    files.config = folder + "/config.json";
  }
  return files;
}

Gpt2Model loadGpt2Files(const Gpt2Files& files) {
  std::optional<Gpt2Config> config;
  if (!files.config.empty()) config = parseGpt2ConfigJson(readSmallFile(files.config), files.config);
  FileStream stream(files.weights);
  try {
    return loadGpt2(stream, config ? &*config : nullptr);
  } catch (const InputError& e) {
    throw InputError(files.weights + ": " + e.what());
  }
}

Gpt2Run runGpt2(const Gpt2Model& model, const std::vector<int>& ids, bool keepBlocks, bool lastOnly) {
  // The one forward (gpt2_forward.h), here in pieces of every row at once.
  Gpt2Forward forward(model, ids, keepBlocks, lastOnly);
  while (!forward.advance()) {
  }
  return forward.take();
}

std::vector<int> generateGpt2(const Gpt2Model& model, std::vector<int> ids, int count) {
  if (count < 0) throw InputError("--tokens must be 0 or more");
  if (static_cast<int64_t>(ids.size()) + count > model.config.nPositions)
    throw InputError("the input's " + std::to_string(ids.size()) + " tokens and " + std::to_string(count) +
                     " more exceed this model's " + std::to_string(model.config.nPositions) + " positions");
  for (int step = 0; step < count; ++step) {
    const Gpt2Run run = runGpt2(model, ids, false, true);
    Eigen::Index best = 0;
    for (Eigen::Index v = 1; v < run.logits.cols(); ++v)
      if (run.logits(0, v) > run.logits(0, best)) best = v;
    ids.push_back(static_cast<int>(best));
  }
  return ids;
}

Config gpt2BlockConfig(const Gpt2Model& model, int layer, const Gpt2BlockRun& block, const std::string& text,
                       std::shared_ptr<const Gpt2Bpe> bpe) {
  Config c;
  for (int part = 0; part < kGpt2BlockConfigParts; ++part) fillGpt2BlockConfig(model, layer, block, text, bpe, part, &c);
  return c;
}

void fillGpt2BlockConfig(const Gpt2Model& model, int layer, const Gpt2BlockRun& block, const std::string& text,
                         const std::shared_ptr<const Gpt2Bpe>& bpe, int part, Config* out) {
  const Gpt2Config& mc = model.config;
  const Gpt2Block& b = model.blocks.at(static_cast<size_t>(layer));
  const Eigen::Index d = mc.nEmbd;
  Config& c = *out;
  switch (part) {
    case 0:
      c.text = text;
      c.tokenizer = TokenizerKind::Gpt2;
      c.gpt2 = bpe;
      c.dModel = mc.nEmbd;
      c.heads = mc.nHead;
      c.dK = c.dV = mc.headWidth();
      c.positional = false;  // wpe is already in the rows
      c.mask = MaskKind::Causal;
      c.scaleKind = ScaleKind::InvSqrtDk;  // 1/√64 = 1/8
      c.explicitWeightsOrigin = WeightOrigin::Trained;  // the checkpoint's weights: the sentences say "learned"
      c.X = block.ln1.cast<double>();      // (L,d): ln_1 of the residual stream
      c.biases.bq = b.attnBias.middleCols(0, d).cast<double>();      // (1,3d) -> (1,d)
      c.biases.bk = b.attnBias.middleCols(d, d).cast<double>();
      c.biases.bv = b.attnBias.middleCols(2 * d, d).cast<double>();
      c.biases.bo = b.attnProjBias.cast<double>();                   // (1,d)
      break;
    case 1: c.Wq = b.attnWeight.middleCols(0, d).cast<double>(); break;      // c_attn (d,3d) -> (d,d): columns 0 … d−1
    case 2: c.Wk = b.attnWeight.middleCols(d, d).cast<double>(); break;      // columns d … 2d−1
    case 3: c.Wv = b.attnWeight.middleCols(2 * d, d).cast<double>(); break;  // columns 2d … 3d−1
    case 4: c.Wo = b.attnProjWeight.unpacked().cast<double>(); break;        // attn.c_proj (d,d)
    default: throw std::out_of_range("fillGpt2BlockConfig: part " + std::to_string(part));
  }
}

std::vector<TopToken> topTokens(const MatrixT<float>& logits, Eigen::Index row, int k) {
  const Eigen::Index V = logits.cols();
  std::vector<double> p(static_cast<size_t>(V));
  for (Eigen::Index v = 0; v < V; ++v) p[static_cast<size_t>(v)] = logits(row, v);
  kernels::softmaxRowInPlace<kernels::DetExp>(p.data(), static_cast<int>(V));  // (1,V) -> (1,V)
  std::vector<int> order(static_cast<size_t>(V));
  for (int v = 0; v < static_cast<int>(V); ++v) order[static_cast<size_t>(v)] = v;
  const size_t n = std::min<size_t>(static_cast<size_t>(std::max(k, 0)), order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), [&](int a, int b) {
    const double pa = p[static_cast<size_t>(a)], pb = p[static_cast<size_t>(b)];
    return pa > pb || (pa == pb && a < b);
  });
  std::vector<TopToken> out;
  for (size_t i = 0; i < n; ++i) out.push_back({order[i], p[static_cast<size_t>(order[i])]});
  return out;
}

}  // namespace attn::models
