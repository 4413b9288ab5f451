// What an open model has beside attention, which the walkthrough shows as steps of their own in the order the model
// computes them (steps.cpp walkOrder): a norm before attention, the residual add, the MLP, a next-token head, and
// Find the head (every block's attention weights). A trained toy model has none of them; an architecture's row
// (core/models/architecture.h) says which a pretrained model has.
#pragma once

namespace ui {

enum class ModelPart { None, LayerNorm, Residual, Mlp, NextToken, FindHead };

struct ModelParts {
  bool layerNorm = false, residual = false, mlp = false, nextToken = false, findHead = false;
  bool learnedPositions = false;  // Embed and Add position then show the model's own tables (wte[id] + wpe[i])
  bool has(ModelPart part) const {
    switch (part) {
      case ModelPart::None: return true;
      case ModelPart::LayerNorm: return layerNorm;
      case ModelPart::Residual: return residual;
      case ModelPart::Mlp: return mlp;
      case ModelPart::NextToken: return nextToken;
      case ModelPart::FindHead: return findHead;
    }
    return false;
  }
};

}  // namespace ui
