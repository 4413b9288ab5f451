// Writes random attention blocks and small models with the engine's double gradients as JSON, for
// torch_reference.py to recompute with PyTorch autograd. Usage: train_torch_dump OUT.json [SEED]
// Blocks: random L_q, L_kv, d_model, heads, d_k ≠ d_v, self or cross, causal or not, padding (some rows fully
// masked), scale 1/√d_k, none or a custom factor; G = dLoss/dOutput random. Models: a 2-layer decoder with MLP and
// an encoder–decoder, a batch of examples with loss masks; the loss and every parameter's gradient.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/random.h"
#include "core/train/block.h"
#include "core/train/model.h"

using namespace attn;
using namespace attn::train;
using json = nlohmann::json;

namespace {

json matrixJson(const Matrix& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

Matrix randomMatrix(Rng& rng, int rows, int cols, double scale) {
  Matrix M(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) M(r, c) = scale * rng.normal();
  return M;
}

int randomInt(Rng& rng, int lo, int hi) { return lo + static_cast<int>(rng.next() % static_cast<uint64_t>(hi - lo + 1)); }

json blockCase(Rng& rng, int index) {
  const int dModel = randomInt(rng, 2, 8), heads = randomInt(rng, 1, 4);
  int dK = randomInt(rng, 1, 5), dV = randomInt(rng, 1, 5);
  if (index % 3 == 0 && dK == dV) dV = dK + 1;  // make sure d_k ≠ d_v is well represented
  const bool cross = index % 2 == 1;
  const int Lkv = randomInt(rng, 2, 7), Lq = cross ? randomInt(rng, 2, 7) : Lkv;
  BlockProblem p;
  p.X = randomMatrix(rng, Lkv, dModel, 1.0);
  if (cross) p.Xq = randomMatrix(rng, Lq, dModel, 1.0);
  const double w = 1.0 / std::sqrt(static_cast<double>(dModel));
  p.Wq = randomMatrix(rng, dModel, heads * dK, 1.5 * w);
  p.Wk = randomMatrix(rng, dModel, heads * dK, 1.5 * w);
  p.Wv = randomMatrix(rng, dModel, heads * dV, w);
  p.Wo = randomMatrix(rng, heads * dV, dModel, w);
  p.heads = heads;
  p.causal = index % 4 >= 2;
  const int scaleKind = index % 3;  // 0: 1/√d_k, 1: none, 2: custom
  p.scale = scaleKind == 0 ? 1.0 / std::sqrt(static_cast<double>(dK)) : scaleKind == 1 ? 1.0 : 0.2 + 2.0 * rng.uniform01();
  if (index % 5 == 4) {  // padding on some keys (with causal, key 0 padded fully masks row 0)
    p.keyPadding.assign(static_cast<size_t>(Lkv), false);
    for (int j = 0; j < Lkv; ++j) p.keyPadding[static_cast<size_t>(j)] = rng.uniform01() < 0.25;
    p.keyPadding[0] = true;
  }
  p.G = randomMatrix(rng, Lq, dModel, 1.0);
  const BlockProblemResult r = solveBlockBackward(p);

  json j;
  j["X"] = matrixJson(p.X);
  if (cross) j["X_q"] = matrixJson(*p.Xq);
  j["W_q"] = matrixJson(p.Wq);
  j["W_k"] = matrixJson(p.Wk);
  j["W_v"] = matrixJson(p.Wv);
  j["W_o"] = matrixJson(p.Wo);
  j["heads"] = heads;
  j["causal"] = p.causal;
  j["padding"] = p.keyPadding;
  j["scale"] = p.scale;
  j["G"] = matrixJson(p.G);
  json g;
  g["output"] = matrixJson(r.output);
  g["dX"] = matrixJson(r.dX);
  if (cross) g["dX_q"] = matrixJson(*r.dXq);
  g["dW_q"] = matrixJson(r.dWq);
  g["dW_k"] = matrixJson(r.dWk);
  g["dW_v"] = matrixJson(r.dWv);
  g["dW_o"] = matrixJson(r.dWo);
  json hs = json::array();
  for (const auto& h : r.heads) hs.push_back({{"dA", matrixJson(h.dA)}, {"dS", matrixJson(h.dS)}});
  g["heads"] = hs;
  j["ours"] = g;
  return j;
}

json modelCase(const ModelConfig& c, uint64_t seed) {
  Model<double> model(c, seed);
  Rng rng(seed + 1);
  for (auto& entry : parameterList(model.params()))  // away from the initialisation: sharper softmaxes
    for (Eigen::Index k = 0; k < entry.second->size(); ++k) entry.second->data()[k] += 0.3 * rng.normal();
  std::vector<Example> batch;
  json examples = json::array();
  for (int b = 0; b < 3; ++b) {
    Example ex;
    const int L = randomInt(rng, 2, 6);
    for (int t = 0; t < L; ++t) {
      ex.input.push_back(randomInt(rng, 0, c.vocab - 1));
      ex.target.push_back(randomInt(rng, 0, c.vocab - 1));
      ex.lossMask.push_back(rng.uniform01() < 0.75 || t == L - 1 ? 1 : 0);
    }
    if (c.encoderDecoder)
      for (int t = randomInt(rng, 2, 6); t > 0; --t) ex.source.push_back(randomInt(rng, 0, c.sourceVocab - 1));
    examples.push_back({{"source", ex.source}, {"input", ex.input}, {"target", ex.target}, {"loss_mask", ex.lossMask}});
    batch.push_back(ex);
  }
  ModelParams<double> grads;
  const double loss = model.lossAndGradient(batch, grads);
  json j;
  j["config"] = {{"vocab", c.vocab},       {"source_vocab", c.sourceVocab},   {"d_model", c.dModel},
                 {"layers", c.layers},     {"encoder_layers", c.encoderDepth()}, {"heads", c.heads},
                 {"d_k", c.dK},            {"d_v", c.dV},                     {"causal", c.causal},
                 {"encoder_causal", c.encoderCausal}, {"scale", c.scale()},   {"mlp", c.mlp},
                 {"positional", c.positional}, {"encoder_decoder", c.encoderDecoder}};
  json params = json::object(), gradsJson = json::object();
  for (const auto& e : parameterList(static_cast<const ModelParams<double>&>(model.params())))
    params[e.first] = matrixJson(*e.second);
  for (const auto& e : parameterList(static_cast<const ModelParams<double>&>(grads))) gradsJson[e.first] = matrixJson(*e.second);
  j["params"] = params;
  j["examples"] = examples;
  j["loss"] = loss;
  j["grads"] = gradsJson;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: train_torch_dump OUT.json [SEED]\n");
    return 2;
  }
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2024;
  Rng rng(seed);
  json out;
  out["blocks"] = json::array();
  for (int i = 0; i < 30; ++i) out["blocks"].push_back(blockCase(rng, i));

  out["models"] = json::array();
  ModelConfig decoder;
  decoder.vocab = 7;
  decoder.dModel = 6;
  decoder.layers = 2;
  decoder.heads = 2;
  decoder.dK = 3;
  decoder.dV = 2;
  decoder.mlp = true;
  decoder.mlpHidden = 5;
  out["models"].push_back(modelCase(decoder, seed + 10));
  ModelConfig encDec;
  encDec.encoderDecoder = true;
  encDec.vocab = 6;
  encDec.sourceVocab = 5;
  encDec.dModel = 4;
  encDec.layers = 2;
  encDec.encoderLayers = 2;
  encDec.heads = 2;
  encDec.dK = 2;
  encDec.dV = 3;
  encDec.mlp = true;
  encDec.mlpHidden = 6;
  encDec.scaleKind = ScaleKind::Custom;
  encDec.customScale = 0.6;
  out["models"].push_back(modelCase(encDec, seed + 20));
  ModelConfig plain;
  plain.vocab = 5;
  plain.dModel = 5;
  plain.layers = 3;
  plain.heads = 1;
  plain.dK = 5;
  plain.dV = 4;
  plain.causal = false;
  plain.scaleKind = ScaleKind::None;
  out["models"].push_back(modelCase(plain, seed + 30));

  std::ofstream file(argv[1]);
  file << out.dump();
  if (!file) {
    std::fprintf(stderr, "train_torch_dump: cannot write %s\n", argv[1]);
    return 1;
  }
  std::cout << "wrote " << out["blocks"].size() << " blocks and " << out["models"].size() << " models to " << argv[1]
            << "\n";
  return 0;
}
