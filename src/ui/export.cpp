// Exports for the Share panel (see export.h).
#include "ui/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/matrices.h"
#include "ui/check_panel.h"
#include "ui/explain.h"
#include "ui/i18n/i18n.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/steps/step.h"

namespace ui {

namespace {

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csvNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Labels of an axis (core/matrices.h): token labels where it is a list of tokens, else d0, d1, ….
std::vector<std::string> axisLabels(const attn::Trace& trace, attn::Axis axis, int count) {
  const std::vector<attn::Token>& tokens = attn::axisTokens(trace, axis);
  if (attn::axisIsTokens(axis) && static_cast<int>(tokens.size()) == count) return tokenLabels(trace.config, tokens);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back("d" + std::to_string(i));
  return out;
}

}  // namespace

bool matrixIsPerHead(const std::string& name) {
  const attn::MatrixInfo* info = attn::findMatrix(name);
  return info && info->perHead();
}

std::string matrixToCsv(const attn::Trace& trace, const std::string& name, int head) {
  const attn::MatrixInfo* info = attn::findMatrix(name);
  const attn::Matrix* m = info && attn::traceHolds(trace, *info) ? info->read(trace, head) : nullptr;
  if (!m) return "";
  const int rows = static_cast<int>(m->rows()), cols = static_cast<int>(m->cols());
  const auto rowLabels = axisLabels(trace, info->rows, rows);
  const auto colLabels = axisLabels(trace, info->cols, cols);
  const bool tokensByTokens = attn::axisIsTokens(info->rows) && attn::axisIsTokens(info->cols);
  std::string out = csvField(tokensByTokens ? "query \\ key" : attn::axisIsTokens(info->rows) ? "token" : "dim");
  for (const auto& l : colLabels) out += "," + csvField(l);
  out += "\r\n";
  for (int r = 0; r < rows; ++r) {
    out += csvField(rowLabels[r]);
    for (int c = 0; c < cols; ++c) out += "," + csvNumber((*m)(r, c));
    out += "\r\n";
  }
  return out;
}

std::string csvFileName(const std::string& nameOrAlias, int head) {
  const std::string name = attn::canonicalMatrixName(nameOrAlias);
  std::string out = "attnlab-" + name;
  if (matrixIsPerHead(name)) out += "-head" + std::to_string(head + 1);
  return out + ".csv";
}

std::string announcement(const AppState& s) {
  const auto& all = steps();
  if (s.step < 0 || s.step >= static_cast<int>(all.size())) return "";
  const std::string gpt2Explanation = gpt2StepExplanation(s, all[s.step].id);  // GPT-2's Embed / Add position
  std::string out = trf(Key::AnnounceStep, walkPosition(s, s.step) + 1, static_cast<int>(walkOrder(s).size()), stepTitle(s, s.step),  // steps shown
                        gpt2Explanation.empty() ? all[s.step].explanation() : gpt2Explanation.c_str());
  if (!s.error.empty()) out += trf(Key::AnnounceError, s.error.c_str());
  out += checkAnnouncement(s);  // the check panel's answer, on the step it came on
  if (!s.pipeline.hasTrace()) return out;
  // The shown head through its softmax is all the sentence reads (trace() computed every head and the combine at
  // once: tens of ms with a GPT-2 block at 128 tokens, and the page asks every 6th frame).
  const attn::Trace& t = s.traceThrough(attn::Stage::Softmax, s.head);
  const std::string id = all[s.step].id;
  const char* name = nullptr;
  Key what = Key::AnnounceWeights;  // " Weights of “quick”"
  if (id == "score") name = "S", what = Key::AnnounceScores;
  else if (id == "scale") name = "S_scaled", what = Key::AnnounceScaledScores;
  else if (id == "mask") name = "S_masked", what = Key::AnnounceMaskedScores;
  else if (s.step >= stepIndexOf("softmax") && stepIndexOf("softmax") >= 0) name = "A", what = Key::AnnounceWeights;
  const int focus = s.config().focus;
  if (focus < 0 || focus >= static_cast<int>(t.queryTokens.size())) return out;
  const std::string focusLabel = tokenLabel(t.config, t.queryTokens, focus);
  const attn::Matrix* m = name ? attn::readMatrix(t, name, s.head) : nullptr;
  if (!m || focus >= m->rows()) return out + trf(Key::AnnounceFocus, focusLabel.c_str());
  out += trf(what, focusLabel.c_str());
  if (s.config().heads > 1) out += trf(Key::AnnounceHead, s.head + 1);
  out += ":";
  const auto keys = tokenLabels(t.config, t.tokens);
  const int cols = static_cast<int>(m->cols());
  const int shown = std::min(cols, 24);
  for (int c = 0; c < shown; ++c) {
    out += (c ? ", " : " ") + (c < static_cast<int>(keys.size()) ? keys[c] : "d" + std::to_string(c)) + " " +
           num((*m)(focus, c), 3);
  }
  if (shown < cols) out += trf(Key::AnnounceMore, cols - shown);
  return out + ".";
}

bool sanitizeUtf8(std::string* text) {
  const std::string& in = *text;
  std::string out;
  out.reserve(in.size());
  bool replaced = false;
  size_t i = 0;
  while (i < in.size()) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    int len = 0;
    unsigned cp = 0, min = 0;
    if (c < 0x80) len = 1, cp = c;
    else if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
    bool ok = len > 0 && i + len <= in.size();
    for (int k = 1; ok && k < len; ++k) {
      const unsigned char cc = static_cast<unsigned char>(in[i + k]);
      if ((cc & 0xC0) != 0x80) ok = false;
      else cp = (cp << 6) | (cc & 0x3F);
    }
    if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (ok) {
      out.append(in, i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      replaced = true;
      ++i;
    }
  }
  if (replaced) *text = std::move(out);
  return replaced;
}

}  // namespace ui
