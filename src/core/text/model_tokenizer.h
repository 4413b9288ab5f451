// A pretrained model's tokenizer, as every front end sees it: text -> ids and pieces, each id's piece as the
// tokenizer writes it and as a reader reads it, the special tokens and the vocabulary's size. GPT-2's byte-level BPE
// (bpe.h) implements it; an architecture's row (models/architecture.h) names which kind it takes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/text/tokenizer.h"

namespace attn {

class ModelTokenizer {
 public:
  virtual ~ModelTokenizer() = default;
  virtual TokenizerKind kind() const = 0;
  virtual int vocabularySize() const = 0;
  virtual std::vector<int> specialIds() const = 0;
  // The ids of `validUtf8` (sanitizeUtf8 first).
  virtual std::vector<int> encode(std::string_view validUtf8) const = 0;
  virtual std::string pieceText(int id) const = 0;   // as the tokenizer writes it: "Ġfox"
  virtual std::string pieceBytes(int id) const = 0;  // the bytes it stands for: " fox" (may cut a character)
  // What a reader should see: whole characters as themselves, a cut character's bytes in hex, spaces as ␣
  // (token_label.h visibleSpaceLabel: "␣its", "⟨e2 80⟩").
  std::string readableLabel(int id) const;
};

}  // namespace attn
