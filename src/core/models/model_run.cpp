// One run of a pretrained model (see model_run.h).
#include "core/models/model_run.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

#include "core/errors.h"
#include "core/limits.h"
#include "core/models/block_config.h"
#include "core/text/tokenizer.h"

namespace attn::models {

EncodedText encodeForModel(const ModelTokenizer& tokenizer, const std::string& text, int maxTokens, int positions) {
  if (text.size() > static_cast<size_t>(limits::kMaxTextBytes))
    throw InputError("the text is " + std::to_string(text.size()) + " bytes long; the limit is " +
                     std::to_string(limits::kMaxTextBytes));
  EncodedText out;
  out.text = sanitizeUtf8(text);
  out.ids = tokenizer.encode(out.text);
  if (out.ids.empty()) throw InputError("type a text for the model", "TypeInput", {});
  const int most = std::min(maxTokens, positions);
  if (static_cast<int>(out.ids.size()) > most)
    throw InputError("the text has " + std::to_string(out.ids.size()) + " tokens; at most " + std::to_string(most) +
                     " can be shown");
  for (int id : out.ids) out.tokens.push_back(tokenizer.pieceText(id));
  return out;
}

double ModelRun::nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ModelRun::ModelRun(std::shared_ptr<const PretrainedModel> model, std::shared_ptr<const ModelTokenizer> tokenizer,
                   const std::string& text, int block, int maxTokens, Pieces pieces) {
  if (!model || !tokenizer) throw std::logic_error("ModelRun: a model and its tokenizer");
  if (tokenizer->vocabularySize() != model->settings.vocab)
    throw InputError("the tokenizer has " + std::to_string(tokenizer->vocabularySize()) + " tokens and the model " +
                     std::to_string(model->settings.vocab));
  result_.input = encodeForModel(*tokenizer, text, maxTokens, model->settings.positions);
  result_.model = std::move(model);
  result_.tokenizer = std::move(tokenizer);
  forward_ = std::make_unique<Forward>(*result_.model, result_.input.ids, true, false, pieces);
  piecesTotal_ = forward_->piecesTotal();
  block_ = block >= 0 && block < result_.model->settings.blocks ? block : (block < 0 ? -1 : 0);
}

std::int64_t ModelRun::piecesDone() const { return forward_ ? forward_->piecesDone() : piecesTotal_; }

int ModelRun::forwardBlock() const { return forward_ ? forward_->block() : result_.model->settings.blocks; }

double ModelRun::fraction() const {
  const bool nextToken = result_.model->arch->head == OutputHead::NextToken;
  const double positions = nextToken ? static_cast<double>(result_.input.ids.size()) : 0;
  const double parts = block_ >= 0 ? kBlockConfigParts : 0;
  const double total = static_cast<double>(piecesTotal_) + positions + parts;
  const double done = stage_ == Stage::Done ? total
                                            : static_cast<double>(piecesDone()) + static_cast<double>(bestDone_) +
                                                  (stage_ == Stage::Config ? configParts_ : 0);
  return total > 0 ? done / total : 1;
}

void ModelRun::setBlock(int block) {
  if (block < -1 || block >= result_.model->settings.blocks) return;
  block_ = block;
  if (stage_ == Stage::Done && configBlock_ != block_) stage_ = Stage::Config;  // cast the new block's
}

bool ModelRun::advance(double deadlineMs) {
  bool first = true;
  auto more = [&] {
    const bool go = first || nowMs() < deadlineMs;
    first = false;
    return go;
  };
  while (stage_ != Stage::Done && more()) {
    switch (stage_) {
      case Stage::Forward:
        if (forward_->advance()) {
          result_.activations = forward_->take();
          forward_.reset();
          stage_ = result_.model->arch->head == OutputHead::NextToken ? Stage::BestNext : Stage::Config;
        }
        break;
      case Stage::BestNext: {
        // One position's softmax over V each (1.3 ms in the page at GPT-2's V).
        const std::size_t positions = static_cast<std::size_t>(result_.activations.logits.rows());
        if (bestDone_ < positions)
          result_.bestNext.push_back(topTokens(result_.activations.logits, static_cast<Eigen::Index>(bestDone_++), 1).at(0));
        if (bestDone_ >= positions) stage_ = Stage::Config;
        break;
      }
      case Stage::Config:
        if (block_ < 0) {
          config_.reset();
          stage_ = Stage::Done;
          break;
        }
        if (!config_ || configBlock_ != block_) {
          config_ = std::make_unique<Config>();
          configBlock_ = block_;
          configParts_ = 0;
        }
        fillBlockConfig(*result_.model, configBlock_, result_.activations.blocks[static_cast<size_t>(configBlock_)],
                        result_.input.text, result_.tokenizer, configParts_++, config_.get());
        if (configParts_ == kBlockConfigParts) stage_ = Stage::Done;
        break;
      case Stage::Done: break;
    }
  }
  return done();
}

ModelResult ModelRun::takeResult() {
  if (!done()) throw std::logic_error("ModelRun::takeResult before the run is done");
  return std::move(result_);
}

std::unique_ptr<Config> ModelRun::takeConfig() {
  if (!done()) throw std::logic_error("ModelRun::takeConfig before the run is done");
  return std::move(config_);
}

ModelResult runModel(std::shared_ptr<const PretrainedModel> model, std::shared_ptr<const ModelTokenizer> tokenizer,
                     const std::string& text, int maxTokens) {
  ModelRun run(std::move(model), std::move(tokenizer), text, -1, maxTokens, Pieces{});
  run.advance(std::numeric_limits<double>::infinity());
  return run.takeResult();
}

}  // namespace attn::models
