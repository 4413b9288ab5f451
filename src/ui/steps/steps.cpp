// The order of the walkthrough.
#include "ui/steps/step.h"

namespace ui {

const std::vector<StepInfo>& steps() {
  static const std::vector<StepInfo> kSteps = {
      {"tokenize", "1. Tokenize: text → tokens → ids", "1. Tokenize", drawTokenizeStep,
         "A model cannot read letters, so the sentence is cut into tokens and each token gets an id: its row number "
         "in the vocabulary. Word-level cuts at spaces and splits punctuation off; character-level makes every "
         "character a token (a CJK character, an emoji sequence or a letter with its accents counts as one). Real "
         "models use subwords (BPE), in between the two: choose GPT-2's own tokenizer to see them."},
      {"embed", "2. Embed: id → row of E", "2. Embed", drawEmbedStep,
         "Each id picks one row of the embedding table E (vocabulary × d_model): a list of d_model numbers that "
         "stands for the token. The row depends only on the token, not on the sentence, so \"second\" in \"give me a "
         "second\" and in \"I came second\" starts from the very same vector; only attention can bring the context "
         "in. Here rows are seeded random numbers N(0,1) (a trained model learns them), a preset's numbers, or GloVe's "
         "real word vectors (Embeddings: GloVe). Click a cell, then type a new value to edit it."},
      {"position", "3. Add position: X = E + PE", "3. Add position", drawPositionStep,
         "Attention compares every token with every other token, but nothing in that comparison says which came "
         "first: \"dog bites man\" and \"man bites dog\" would look the same. So each position p gets a fixed pattern "
         "of sines and cosines, PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(…), added to the token's "
         "embedding. Low dimensions wiggle fast, high ones slowly, like the hands of a clock."},
      {"project", "4. Project: Q = X·W_q, K = X·W_k, V = X·W_v", "4. Project to Q, K, V", drawProjectStep,
         "Each token's vector x is multiplied by three weight matrices to play three roles. Its query q says what it "
         "is looking for, its key k what it offers to be found by, its value v what it hands over when found. "
         "q and k must have the same width d_k (they will be compared by a dot product); v has its own width d_v. "
         "Each head has its own W_q, W_k, W_v, so each head can look for something different."},
      {"score", "5. Score: S = Q·Kᵀ", "5. Score", drawScoreStep,
         "Every query is compared with every key by a dot product: S[i, j] = q_i · k_j = Σ q_i[c]·k_j[c]. It is large "
         "when the two vectors point the same way (cos θ near 1), near zero when they are unrelated, negative when "
         "they point apart; and it grows with their lengths. Hover a cell of S to see its terms."},
      {"scale", "6. Scale: S / √d_k", "6. Scale", drawScaleStep,
         "A dot product of d_k terms adds up d_k random contributions: if the entries of q and k have variance 1, "
         "q·k has variance d_k, so its typical size grows like √d_k. Big scores make the softmax of the next steps "
         "nearly one-hot, and then its gradient vanishes and the model stops learning. Dividing by √d_k brings the "
         "variance back to 1 whatever the width."},
      {"mask", "7. Mask", "7. Mask", drawMaskStep,
         "Sometimes a query must not look at some keys. A decoder generating text must not peek at the words after "
         "it (causal mask: key j > query i is hidden). Padding tokens that only fill a batch to equal length must be "
         "ignored (padding mask). Hiding is done by adding −∞ to the score: e^−∞ = 0, so the softmax gives those keys "
         "exactly zero weight and renormalises over the rest."},
      {"softmax", "8. Softmax: each row → weights", "8. Softmax", drawSoftmaxStep,
         "Each row of scores becomes a row of weights: a_ij = e^(s_ij) / Σ_k e^(s_ik). The weights are positive and "
         "sum to 1, and larger scores get exponentially more. To stay finite we subtract the row's maximum first "
         "(e^(s − max) never overflows; the ratio is unchanged). When one score is far above the others the row "
         "turns one-hot: the row is saturated, and its gradient p_i(δ_ij − p_j) is nearly zero everywhere."},
      {"weighted-sum", "9. Weighted sum: O = A·V", "9. Weighted sum", drawWeightedSumStep,
         "Now each query collects information: its output is the average of all value vectors, weighted by its "
         "attention weights, o_i = Σ_j a_ij v_j. A token that attends mostly to \"fox\" ends up carrying mostly the "
         "value of \"fox\". This is where context flows into each token."},
      {"combine", "10. Combine heads: concat · W_o", "10. Combine heads", drawCombineStep,
         "Each head produced its own output O_h (L × d_v). They are placed side by side, concat = [O_1 … O_h], and "
         "multiplied by W_o, which mixes what the heads found and maps it back to d_model, so the result can be "
         "added to the token's vector and passed to the next layer."},
      {"heads", "All heads at once", "All heads", drawHeadsStep,
         "Every head computes its own weights A from the same sentence, and different heads learn to look for "
         "different things. Here is one small map per head (and per layer for a trained model with several), side by "
         "side: dark cells are the large weights. Under each map is the word the focus token attends to most in that "
         "head. Click a map to open that head in the walkthrough."},
      {"lines", "Attention lines", "Attention lines", drawLinesStep,
         "The same weights A as lines: each query on the left is joined to every key on the right, the thicker and "
         "darker the line the larger the weight. Each head has its own colour. Hover a token to see only its lines; "
         "switch heads on and off to compare what they attend to. With d_k = 2 drag q in the square below "
         "and watch the scores, the weights and the output follow; tick \"direction only\" to compare angles alone."},
      {"saturation", "Saturation lab: why √d_k", "Saturation lab", drawSaturationLabStep,
         "Why does attention divide the scores by √d_k? A score q·k adds up d_k products. If the entries of q and k "
         "have variance 1, the score has variance d_k, so wide heads produce huge scores, and the softmax of huge "
         "scores is one-hot: one key takes all the weight and the gradient vanishes. Dividing by √d_k keeps the "
         "variance at 1 for every d_k. Move the slider and compare the two rows, then read the same story over all "
         "d_k in the plots."},
      {"train", "Train a model: watch attention learn", "Train", drawTrainStep,
         "Everywhere else the weights are random, so the patterns mean nothing. Here a small model of the same "
         "attention learns a task from examples: pick one, press Train, and watch the loss fall and each head's "
         "attention form the pattern the task needs (reverse: position t looks at 7−t). Then open the trained model "
         "in the walkthrough and follow its learned numbers through the ten steps."},
  };
  return kSteps;
}

const char* stepExplanation(const std::string& id) {
  const int i = stepIndexOf(id);
  return i < 0 ? "" : steps()[i].explanation;
}

int stepIndexOf(const std::string& id) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (id == all[i].id) return i;
  return -1;
}

}  // namespace ui
