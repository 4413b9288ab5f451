// GPT-2's forward advanced in pieces (core/models/forward.h) has the bits of runForward's (every row at once):
// a random model built in memory (2 blocks, 4 heads, d 128, 40 tokens, a 1000-row vocabulary; wider than 32 rows
// and 128 columns, so the wasm build's few-row and many-row product paths both run), run with pieces of 1, 5, 16
// and 40 rows and 7, 64 and 2048 vocabulary rows, every kept matrix and the logits compared byte for byte, with the
// piece count and the block reported along the way. Also lastOnly and keepBlocks = false, and bad ids refused.
// A plain program (no GoogleTest) so tests/models/gpt2_pieces_wasm.sh can build the same file with em++ and run it
// under node: ctests gpt2_forward_pieces (native) and wasm_gpt2_forward_pieces. Prints "ok …" lines; exit 1 on a
// difference.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/models/pretrained_model.h"
#include "core/models/forward.h"
#include "random_gpt2.h"

namespace am = attn::models;
using MF = attn::MatrixT<float>;

namespace {

int failures = 0;

// d 128, 4 heads, 2 blocks, 64 positions, a 1000-row vocabulary (tests/models/random_gpt2.h).
am::PretrainedModel randomModel() { return modeltest::randomGpt2Model(29, {2, 4, 128, 64, 1000}); }

bool same(const MF& a, const MF& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())) == 0;
}

void expectSame(const MF& mine, const MF& whole, const std::string& what) {
  if (same(mine, whole)) return;
  ++failures;
  std::printf("FAIL %s differs from runForward's (%ldx%ld vs %ldx%ld)\n", what.c_str(), static_cast<long>(mine.rows()),
              static_cast<long>(mine.cols()), static_cast<long>(whole.rows()), static_cast<long>(whole.cols()));
}

void compareRuns(const am::Activations& mine, const am::Activations& whole, const std::string& label) {
  expectSame(mine.logits, whole.logits, label + " logits");
  expectSame(mine.finalNorm, whole.finalNorm, label + " ln_f");
  if (mine.blocks.size() != whole.blocks.size()) {
    ++failures;
    std::printf("FAIL %s keeps %zu blocks, runForward %zu\n", label.c_str(), mine.blocks.size(), whole.blocks.size());
    return;
  }
  for (size_t l = 0; l < whole.blocks.size(); ++l) {
    const am::BlockActivations &p = mine.blocks[l], &w = whole.blocks[l];
    const std::string at = label + " block " + std::to_string(l);
    expectSame(p.input, w.input, at + " input");
    expectSame(p.attentionInput, w.attentionInput, at + " ln_1");
    expectSame(p.attention, w.attention, at + " attention");
    expectSame(p.mlpInput, w.mlpInput, at + " ln_2");
    expectSame(p.mlpHidden, w.mlpHidden, at + " MLP hidden");
    expectSame(p.output, w.output, at + " output");
    for (size_t h = 0; h < w.A.size(); ++h) expectSame(p.A.at(h), w.A[h], at + " A head " + std::to_string(h));
  }
}

}  // namespace

int main() {
  const am::PretrainedModel model = randomModel();
  std::vector<int> ids;
  for (int t = 0; t < 40; ++t) ids.push_back((t * 379 + 11) % model.settings.vocab);
  for (bool lastOnly : {false, true}) {
    for (bool keep : {true, false}) {
      const am::Activations whole = am::runForward(model, ids, keep, lastOnly);
      for (int rows : {1, 5, 16, 40}) {
        for (int vocabRows : {7, 64, 2048}) {
          am::Forward forward(model, ids, keep, lastOnly, am::Pieces{rows, vocabRows});
          const std::int64_t total = forward.piecesTotal();
          const std::int64_t rowPieces = (40 + rows - 1) / rows;
          const std::int64_t expected = 2 * (2 * rowPieces + 4) + (1000 + vocabRows - 1) / vocabRows;
          std::int64_t steps = 0;
          int lastBlock = 0;
          bool blocksInOrder = true;
          while (!forward.done()) {
            if (forward.block() < lastBlock || forward.piecesDone() != steps) blocksInOrder = false;
            lastBlock = forward.block();
            forward.advance();
            ++steps;
          }
          const std::string label = "rows " + std::to_string(rows) + ", vocabulary rows " + std::to_string(vocabRows) +
                                    (keep ? ", blocks kept" : "") + (lastOnly ? ", last position" : "");
          if (total != expected || steps != total || !blocksInOrder || forward.block() != 2) {
            ++failures;
            std::printf("FAIL %s: %lld pieces (expected %lld), %lld advances, block %d at the end\n", label.c_str(),
                        static_cast<long long>(total), static_cast<long long>(expected),
                        static_cast<long long>(steps), forward.block());
          }
          compareRuns(forward.take(), whole, label);
        }
      }
      std::printf("ok pieces of 1/5/16/40 rows and 7/64/2048 vocabulary rows: runForward's bits%s%s\n",
                  keep ? ", every block kept" : "", lastOnly ? ", last position only" : "");
    }
  }
  // Bad ids: refused by the constructor, as runForward refuses them.
  for (const std::vector<int>& bad : {std::vector<int>{}, std::vector<int>{1000}, std::vector<int>(65, 1)}) {
    try {
      am::Forward forward(model, bad, true);
      ++failures;
      std::printf("FAIL %zu ids with a bad one were not refused\n", bad.size());
    } catch (const attn::InputError& e) {
      std::printf("ok refused: %s\n", e.what());
    }
  }
  std::printf("%s\n", failures ? "FAILED" : "all equal");
  return failures ? 1 : 0;
}
