// The trace budget: the page can never be asked for more memory than one trace's cap.
#include <gtest/gtest.h>

#include "core/budget.h"
#include "core/errors.h"
#include "core/pipeline.h"
#include "core/data/presets.h"

namespace {

TEST(Budget, CountsEveryMatrix) {
  attn::Config c;
  c.dModel = 4;
  c.heads = 1;
  c.dK = 2;
  c.dV = 2;
  // sides 3·5·4·2=120, weights 2·4·2+2·4·2=32, slices 2·4·2+4·2=24, head 5·2+5·2+5·2+4·25+5·2=140, rest 25+10+20=55
  EXPECT_EQ(attn::traceNumbers(c, 5, 5), 120 + 32 + 24 + 140 + 55);
}

TEST(Budget, EveryPresetFits) {
  for (const attn::Preset& p : attn::presets()) EXPECT_NO_THROW(attn::computeTrace(p.config)) << p.name;
}

TEST(Budget, MaximumDimensionsAreRefusedWithAMessage) {
  attn::Config c;
  c.dModel = 1024;
  c.heads = 16;
  c.dK = c.dV = 1024;
  c.text = "a b c d";
  try {
    attn::computeTrace(c);
    FAIL() << "expected an InputError";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("million numbers"), std::string::npos) << e.what();
  }
}

TEST(Budget, IncrementalChangeIsCheckedToo) {
  attn::Pipeline p;
  attn::Config c;
  c.text = std::string(200, 'a');
  c.tokenizer = attn::TokenizerKind::Char;
  c.dModel = 64;
  c.heads = 2;
  c.dK = c.dV = 32;
  p.update(c);  // fits
  attn::Config big = c;
  big.heads = 16;
  big.dK = big.dV = 1024;
  big.dModel = 1024;
  EXPECT_THROW(p.update(big), attn::InputError);
  EXPECT_EQ(p.trace().config, c);  // previous trace kept
}

}  // namespace
