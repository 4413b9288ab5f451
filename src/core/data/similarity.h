// Cosine similarity between embedding rows, for the Embed step with real word vectors: the similarity matrix of a
// sentence's tokens and the arithmetic behind each cell (dot product, norms, angle), and how much of GloVe's
// variance the first k principal axes keep (d_model = k is a PCA view of the vectors, glove.h).
#pragma once
#include "core/matrix.h"

namespace attn {

class GloveVectors;  // glove.h

// One pair of rows a, b: a·b, |a|, |b|, cos θ = a·b / (|a| |b|) and θ in degrees. A zero row has cosine 0, θ 90°.
struct RowSimilarity {
  double dot = 0, normA = 0, normB = 0, cosine = 0, degrees = 90;
};
RowSimilarity rowSimilarity(const Matrix& rows, int a, int b);

// C[i, j] = cos(row i, row j) : (L,d) -> (L,L). Symmetric, 1 on the diagonal (0 for a zero row).
Matrix cosineMatrix(const Matrix& rows);

// Share of the total variance of GloVe's words kept by their first k principal coordinates (0 … 1; k clamped
// into 0 … dims()).
double keptVariance(const GloveVectors& glove, int k);

}  // namespace attn
