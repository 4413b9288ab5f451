// The readable label every model tokenizer shares (see model_tokenizer.h).
#include "core/text/model_tokenizer.h"

#include "core/text/token_label.h"

namespace attn {

std::string ModelTokenizer::readableLabel(int id) const { return visibleSpaceLabel(pieceBytes(id)); }

}  // namespace attn
