// `attnlab matrices`: the matrix registry (src/core/matrices.h) — every matrix a trace can hold, with its shape in
// symbols, whether it is per head, its formula, what it is computed from and whether a user may edit it.
#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "core/matrices.h"

namespace attncli {

namespace {

std::string inputsText(const attn::MatrixInfo& info) {
  std::string out;
  for (const attn::MatrixDep& dep : info.inputs) out += (out.empty() ? "" : ", ") + std::string(attn::matrixInfo(dep.input).name);
  return out.empty() ? "-" : out;
}

std::string headsText(const attn::MatrixInfo& info) {
  switch (info.heads) {
    case attn::HeadLayout::None: return "no";
    case attn::HeadLayout::PerHead: return "yes";
    case attn::HeadLayout::ColumnBlocks: return "yes (column blocks)";
  }
  return "no";
}

void runMatrices(const std::string& format) {
  if (format == "json") {
    std::cout << attn::matrixRegistryJson(2) << "\n";
    return;
  }
  const std::vector<std::string> header = {"name", "kind", "shape", "per head", "editable", "computed from", "formula"};
  std::vector<std::vector<std::string>> rows;
  for (const attn::MatrixInfo& info : attn::matrixRegistry())
    rows.push_back({info.name, attn::matrixKindName(info.kind), attn::shapeSymbol(info), headsText(info), info.editable ? "yes" : "no", inputsText(info),
                    info.formula});
  std::vector<int> widths(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) {
    widths[c] = displayWidth(header[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], displayWidth(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) out += c + 1 < cells.size() ? padRight(cells[c], widths[c]) + "  " : cells[c];
    std::cout << out << "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  std::cout << "\nShapes: L_q queries, L_kv keys/values, L_cmp comparison tokens, h heads. Column-block weights are "
               "written whole in the trace JSON, (d_model, h·d_k) or (d_model, h·d_v). Gradients (dL/d…, given dL/d output) are "
               "in a trace made by `attnlab backward`. Pretrained rows (b_q … logits) are in the traces of a GPT-2 "
               "checkpoint's blocks (`attnlab trace --model`; logits, the last position's, in the last block's only).\n";
}

}  // namespace

Command addMatricesCommand(CLI::App& parent) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* app = parent.add_subcommand("matrices", "List every matrix a trace holds (the matrix registry)");
  addFormatOption(app, format.get());
  return {app, [format] { runMatrices(*format); }};
}

}  // namespace attncli
