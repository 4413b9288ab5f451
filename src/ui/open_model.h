// The open model, as the walkthrough, the panels, getState/setState, the link, the trace and the check see it: one
// interface that a trained toy model (model_view.cpp) and a pretrained checkpoint (gpt2_state.cpp) implement, so no
// code outside a model's own files asks which kind is open. AppState::model holds it (null: none); while it is open
// the walkthrough's Config is its shown block's (applyModelBlockConfig), and every step reads the Trace unchanged.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/trace.h"
#include "ui/model_parts.h"

namespace ui {

struct AppState;

// The settings a model fixes: their controls (the sidebar's, the Position step's toggle) are disabled while it is
// open, and the hover says why.
enum class ModelLock { Tokenizer, Embeddings, Dimensions, Positional, Mask, Scale, Cross, Seed };

// One block's attention weights for All heads: its name in the page's language and a Trace holding each head's A.
struct BlockAttention {
  std::string name;
  const attn::Trace* trace = nullptr;
};

class OpenModel {
 public:
  virtual ~OpenModel() = default;

  // What it is: getState's and the link's model.kind ("trained" | "pretrained") and architecture ("toy" | a row's
  // name, "gpt2"); what it has beside attention (the steps shown follow it).
  virtual const char* kind() const = 0;
  virtual std::string arch() const = 0;
  virtual ModelParts parts() const { return {}; }

  // The block shown and how many there are; the text it runs on.
  virtual int block() const = 0;
  virtual int blocks() const = 0;
  virtual std::string input() const = 0;

  // Another block (the picker), new inputs (the sentence bar; `source` for an encoder–decoder): "" or the message,
  // nothing changes on a refusal. They may replace s.model (the caller keeps no reference into it).
  virtual std::string showBlock(AppState& s, int block) = 0;
  virtual std::string setInput(AppState& s, const std::string& source, const std::string& input) = 0;

  // Drawing: the sentence bar's fields, the model panel (what is open, the pickers, Close).
  virtual void drawInputs(AppState& s, float width) = 0;
  virtual void drawPanel(AppState& s) = 0;
  // Why a locked control is locked, in the page's language ("" : the general reason, from the Config).
  virtual std::string lockReason(const AppState& s, ModelLock what) const = 0;

  // Every block's attention for All heads (empty: only the shown block's, from the walkthrough's Trace).
  virtual std::vector<BlockAttention> everyBlock(const AppState& s, const attn::Trace& shown) const = 0;
  // Where its attention weights come from, said in the page's language ("" : said from the Config's weights).
  virtual std::string weightsOrigin() const { return ""; }
  // Whether trace() and the Share panel's Trace JSON are the model's own lean trace (traceJson), not the
  // walkthrough's full one.
  virtual bool ownTrace() const { return false; }

  // Page I/O: getState().model, setState({model: …}) while it is open, the link's "model" entry, trace().
  virtual nlohmann::json toJson(const AppState& s) const = 0;
  virtual std::string applyJson(AppState& s, const nlohmann::json& request) = 0;
  virtual nlohmann::json linkJson(const AppState& s) const = 0;  // null: the link holds the block's Config instead
  virtual std::string traceJson(const AppState& s) const = 0;    // "" : the walkthrough's Trace JSON
};

}  // namespace ui
