// The cosine-similarity matrix of a sentence's embedding rows, as a heatmap grid (−1 blue, 0 white, 1 red) with the
// tokens on both axes and the cosine printed in each cell. Hover a cell: cos(a, b) = a·b / (|a| |b|) with the dot
// product, both norms and the angle θ, all from the core (core/similarity.h). The UI computes nothing itself.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"
#include "ui/ui.h"

namespace ui {

struct SimilarityGridSpec {
  const char* id = "cosines";
  const attn::Matrix* rows = nullptr;     // the embedding rows (L,d) the cosines are of (for the hover's numbers)
  const attn::Matrix* cosines = nullptr;  // attn::cosineMatrix(*rows) : (L,L)
  std::vector<std::string> labels;        // one per row
  std::vector<bool> marked;               // tokens GloVe lacks (seeded rows): label drawn in orange with a "*"
  int focus = -1;                         // the focus token's row, outlined
  float maxWidth = 0;                     // px available; 0: the content region's width
};

// Returns true while a cell is hovered.
bool drawSimilarityGrid(const SimilarityGridSpec& spec, const Fonts& fonts);

}  // namespace ui
