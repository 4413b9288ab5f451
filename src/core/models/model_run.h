// One run of a pretrained model on a text, the way every front end runs it: tokenize, the forward a piece at a time
// (forward.h) with every block kept, each position's most probable next token (a next-token head), and the shown
// block's walkthrough Config cast a part at a time (block_config.h). Shaped like the training Session: the page
// calls advance(deadline) once a frame, the CLI runs it to the end, the tests drive the same run; the bits do not
// depend on how it was sliced.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/models/analysis.h"
#include "core/models/forward.h"
#include "core/text/model_tokenizer.h"

namespace attn::models {

// A text as a model reads it.
struct EncodedText {
  std::string text;                 // valid UTF-8 (sanitizeUtf8)
  std::vector<int> ids;
  std::vector<std::string> tokens;  // each id's piece as the tokenizer writes it ("Ġfox")
};
// Refuses (InputError) a text over limits::kMaxTextBytes, one without tokens (id "TypeInput") and one with more
// tokens than `maxTokens` or the model's positions.
EncodedText encodeForModel(const ModelTokenizer& tokenizer, const std::string& text, int maxTokens, int positions);

// What a finished run holds: what the walkthrough, getState and the CLI read.
struct ModelResult {
  std::shared_ptr<const PretrainedModel> model;
  std::shared_ptr<const ModelTokenizer> tokenizer;
  EncodedText input;
  Activations activations;         // every block kept; logits (L,V)
  std::vector<TopToken> bestNext;  // per position, the most probable next token (next-token heads; else empty)
};

class ModelRun {
 public:
  // Tokenizes `text` now (throws InputError, see encodeForModel) and embeds it. `block`: the block whose walkthrough
  // Config is cast at the end (-1: none). The model and the tokenizer must be the row's (same vocabulary size).
  ModelRun(std::shared_ptr<const PretrainedModel> model, std::shared_ptr<const ModelTokenizer> tokenizer,
           const std::string& text, int block, int maxTokens, Pieces pieces = kPagePieces);
  ModelRun(const ModelRun&) = delete;
  ModelRun& operator=(const ModelRun&) = delete;

  // Runs pieces until the steady clock passes `deadlineMs` (nowMs()), at least one a call. Returns done().
  bool advance(double deadlineMs);
  bool done() const { return stage_ == Stage::Done; }
  static double nowMs();

  // The block whose Config is cast (a different one restarts the cast once the forward is done); -1: none.
  void setBlock(int block);
  int block() const { return block_; }

  // Progress: the forward's pieces, then the rest. forwardBlock: the block the forward is in (blocks: the output).
  bool forwardDone() const { return stage_ != Stage::Forward; }
  std::int64_t piecesDone() const;
  std::int64_t piecesTotal() const { return piecesTotal_; }
  int forwardBlock() const;
  bool castingConfig() const { return stage_ == Stage::Config; }  // the forward is done; the block's Config is cast
  // 0 … 1 over all the run's work: the forward's pieces, each position's best next token, the Config's parts.
  double fraction() const;
  const PretrainedModel& model() const { return *result_.model; }
  const std::shared_ptr<const PretrainedModel>& sharedModel() const { return result_.model; }
  const EncodedText& input() const { return result_.input; }

  // Once done: the result and the block's Config (moved out: call each once).
  ModelResult takeResult();
  std::unique_ptr<Config> takeConfig();

 private:
  enum class Stage { Forward, BestNext, Config, Done };
  ModelResult result_;
  std::unique_ptr<Forward> forward_;
  std::unique_ptr<Config> config_;
  Stage stage_ = Stage::Forward;
  int block_ = -1, configBlock_ = -1, configParts_ = 0;
  std::size_t bestDone_ = 0;
  std::int64_t piecesTotal_ = 0;
};

// The whole run at once (the CLI, tests).
ModelResult runModel(std::shared_ptr<const PretrainedModel> model, std::shared_ptr<const ModelTokenizer> tokenizer,
                     const std::string& text, int maxTokens);

}  // namespace attn::models
