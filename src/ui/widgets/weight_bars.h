// Horizontal bars of one softmax row: one bar per key, length = weight, the number printed to its right.
#pragma once
#include <string>
#include <vector>

#include "ui/ui.h"

namespace ui {

void drawWeightBars(const std::vector<std::string>& labels, const std::vector<double>& weights, float width,
                    const Fonts& fonts, unsigned int barColor = 0xFFB47A1F /* ABGR: a blue */);

}  // namespace ui
