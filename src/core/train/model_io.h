// A trained model as a JSON file (`attnlab train --save`, `attnlab trace --model`): the task, the ModelConfig, the
// vocabularies and every parameter, written so that reading it back gives the same bits.
//
// ---- Model JSON, format version 1 ----
// { "format":  "attnlab-model"                      fixed: what this file is
//   "version": 1                                    the format version (a reader refuses versions it does not know)
//   "task":    string                               the built-in task it was trained on ("reverse", …; may be "")
//   "config":  { "d_model": int, "layers": int (1..3), "encoder_layers": int (0 = as layers), "heads": int,
//                "d_k": int, "d_v": int, "causal": bool, "encoder_causal": bool,
//                "scale": "default" (1/√d_k) | "none" (1) | number (the factor),
//                "mlp": bool, "mlp_hidden": int (0 = 4·d_model), "positional": bool,
//                "encoder_decoder": bool, "max_length": int (1..512) }     every key required
//   "vocab":        [string]   the decoder's (or only stack's) tokens, id = index; the vocabulary size is its length
//   "source_vocab": [string]   the encoder's tokens (encoder–decoder only; [] otherwise)
//   "training": { "steps", "batch", "warmup": int, "learning_rate": number, "seed": int,
//                 "final_loss", "final_accuracy": number }                 informational, optional
//   "parameters": { name: {"shape": [rows, cols], "data": [[number × cols] × rows]} }
//   — or, instead of "parameters" (exactly one of the two) —
//   "parameters_f16": string   every parameter in parameterList order, row by row, as IEEE half floats (2 bytes
//                              each, little-endian), base64url without padding: the compact form of links and of the
//                              page's trained presets (half the bytes of float32; relative error ≤ 2^-11)
// }
// Parameter names and shapes are those of parameterList (model.h), e.g. "E" (vocab × d_model), "E_src",
// "enc0.self.W_q", "layer0.self.W_q" (d_model × heads·d_k), "layer1.cross.W_o" (heads·d_v × d_model),
// "layer0.mlp.W1" (d_model × hidden), "layer0.mlp.b1" (1 × hidden), "out.W" (d_model × vocab), "out.b" (1 × vocab).
// Numbers are written as the shortest decimal that reads back to the same double; a float-trained model's values
// are floats widened to double, so they read back to the same float bits.
// Reading checks everything and names what is wrong: the format and version, unknown or missing keys, each config
// value's type and range (validate(ModelConfig)), the vocabularies (sizes, empty, duplicate or whitespace-holding
// tokens), every parameter's presence, shape (both shapes named) and values (finite, |x| <= 1e6, cell named).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/train/model.h"

namespace attn::train {

inline constexpr const char* kModelFormat = "attnlab-model";
inline constexpr int kModelFormatVersion = 1;

struct TrainingSummary {
  bool present = false;
  int steps = 0;
  int batch = 0;
  int warmup = 0;
  double learningRate = 0;
  uint64_t seed = 0;
  double finalLoss = 0;
  double finalAccuracy = 0;
};

struct SavedModel {
  std::string task;
  ModelConfig config;                     // config.vocab / sourceVocab = the vocabularies' sizes
  std::vector<std::string> vocab;         // decoder (or only) tokens: id -> text
  std::vector<std::string> sourceVocab;   // encoder tokens (encoder–decoder only)
  ModelParams<double> params;             // every parameter (a float model's values widened exactly)
  TrainingSummary training;
};

// The ModelConfig as the "config" object above (also what `attnlab train --format json` prints).
nlohmann::ordered_json modelConfigJson(const ModelConfig& config);

enum class WeightEncoding { Decimal, Half };  // "parameters" as shortest decimals, or "parameters_f16"

// The Model JSON document. indent < 0: one line. Half: throws InputError if a weight is beyond ±65504.
std::string modelToJson(const SavedModel& model, int indent = -1, WeightEncoding encoding = WeightEncoding::Decimal);
// The model with every parameter rounded to half precision (what a Half document reads back as).
SavedModel roundedToHalf(const SavedModel& model);
// Parses and validates a Model JSON document; throws attn::InputError with a user-facing message.
SavedModel modelFromJson(const std::string& text);

// The parameters a config has, by name and shape, in parameterList order (without allocating them).
struct ParameterShape {
  std::string name;
  int rows = 0;
  int cols = 0;
  std::string meaning;  // e.g. "d_model x heads*d_k"
};
std::vector<ParameterShape> parameterShapes(const ModelConfig& config);

}  // namespace attn::train
