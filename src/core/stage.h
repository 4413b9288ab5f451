// The pipeline's stages (the walkthrough's steps 1-10) in data-flow order: the stage a Config change invalidates
// (config_fields), the stages the Pipeline recomputes (pipeline.h) and the stage that computes a matrix (matrices.h).
#pragma once

namespace attn {

// A change invalidates its own stage and every later one. Count: none (nothing to recompute).
enum class Stage { Tokenize = 0, Embed, Position, Project, Score, ScaleMask, Softmax, WeightedSum, Combine, Count };

// "tokenize", "embed", …, "combine"; "none" for Count.
inline const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::Tokenize: return "tokenize";
    case Stage::Embed: return "embed";
    case Stage::Position: return "position";
    case Stage::Project: return "project";
    case Stage::Score: return "score";
    case Stage::ScaleMask: return "scale-mask";
    case Stage::Softmax: return "softmax";
    case Stage::WeightedSum: return "weighted-sum";
    case Stage::Combine: return "combine";
    case Stage::Count: break;
  }
  return "none";
}

}  // namespace attn
