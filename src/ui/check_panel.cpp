// The "Check my implementation" panel (see check_panel.h).
#include "ui/check_panel.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/check/bugs.h"
#include "core/check/check.h"
#include "core/check/inputs.h"
#include "core/errors.h"
#include "core/io/zip.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/controls.h"
#include "ui/i18n/error_text.h"
#include "ui/i18n/i18n.h"
#include "ui/narrow_layout.h"
#include "ui/share_panel.h"
#include "ui/theme.h"
#include "ui/widgets/text_fields.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

constexpr size_t kMaxResultBytes = 64u << 20;  // as an imported Config (share_panel.cpp)
constexpr ImU32 kCheckOutline = IM_COL32(200, 20, 40, 255);  // the wrong cell's outline and its callout's border

// README's starter (tests/check/check_bugs.py runs README's copy; tests/browser/checkpage.test.mjs checks that the
// panel copies exactly that).
constexpr const char* kNumpyStarter = R"(import numpy as np

d = np.load("inputs.npz")
X, W_q, W_k, W_v, W_o = d["X"], d["W_q"], d["W_k"], d["W_v"], d["W_o"]
X_q = d["X_q"] if "X_q" in d else X         # the queries' rows (cross-attention), else X
mask, scale = d["mask"], float(d["scale"])  # mask: (L_q, L_kv) of 0 and -inf
h, d_k, d_v = int(d["heads"]), int(d["d_k"]), int(d["d_v"])
# biases (1, width): present when the configuration has them (a GPT-2 block), else zeros
b_q, b_k, b_v, b_o = (d[n] if n in d else np.zeros((1, W.shape[1]))
                      for n, W in (("b_q", W_q), ("b_k", W_k), ("b_v", W_v), ("b_o", W_o)))

A_heads, O_heads = [], []
for i in range(h):
    qk, v = slice(i*d_k, (i+1)*d_k), slice(i*d_v, (i+1)*d_v)  # head i's columns
    Wq_i, Wk_i, Wv_i = W_q[:, qk], W_k[:, qk], W_v[:, v]
    bq_i, bk_i, bv_i = b_q[:, qk], b_k[:, qk], b_v[:, v]
    # ---- your code: head i's attention weights A (L_q, L_kv) and output O (L_q, d_v). Replace these lines.
    Q, K, V = X_q @ Wq_i + bq_i, X @ Wk_i + bk_i, X @ Wv_i + bv_i
    S = Q @ K.T * scale + mask
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    O = A @ V
    # ---- end of your code
    A_heads.append(A)
    O_heads.append(O)
output = np.concatenate(O_heads, axis=1) @ W_o + b_o  # (L_q, h*d_v) @ (h*d_v, d_model) + (1, d_model)
np.save("A.npy", np.stack(A_heads))  # (h, L_q, L_kv)
np.save("O.npy", np.stack(O_heads))  # (h, L_q, d_v)
np.save("output.npy", output)        # (L_q, d_model)
)";
// The three lines the panel shows of it: where the inputs come from.
constexpr const char* kStarterShown =
    "d = np.load(\"inputs.npz\")\n"
    "X, W_q, W_k, W_v, W_o = d[\"X\"], d[\"W_q\"], d[\"W_k\"], d[\"W_v\"], d[\"W_o\"]\n"
    "mask, scale = d[\"mask\"], float(d[\"scale\"])";

const char* const kCheckable[] = {"S", "S_scaled", "A", "O", "concat", "output"};

// The matrix a file's name says it holds: "A.npy", "output.json", "S_scaled.csv" (README's starter saves A.npy,
// O.npy, output.npy); "" for any other name.
std::string matrixNamedBy(const std::string& fileName) {
  const size_t slash = fileName.find_last_of("/\\");
  std::string stem = fileName.substr(slash == std::string::npos ? 0 : slash + 1);
  stem = stem.substr(0, stem.find('.'));
  for (const char* name : kCheckable)
    if (stem == name) return name;
  return "";
}

// A fix's text in the UI's language: the core's fix key (bugs.h, "CheckFixMissingScale") is a key of the tables.
const char* fixText(const attn::BugInfo& bug) {
  static const std::map<std::string, Key> kByName = [] {
    std::map<std::string, Key> keys;
    for (int i = 0; i < kKeyCount; ++i) keys[keyName(static_cast<Key>(i))] = static_cast<Key>(i);
    return keys;
  }();
  const auto it = kByName.find(bug.fixKey);
  return it == kByName.end() ? bug.fix : tr(it->second);
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return replaceMinus(buf);
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? " × " : "") + std::to_string(shape[k]);
  return out;
}

// "A (head 2)", "A (every head)", "output".
std::string checkedWhat(const attn::CheckResult& r) {
  const attn::MatrixInfo* info = attn::findMatrix(r.matrix);
  if (!info || !info->perHead()) return r.matrix;
  return r.head >= 0 ? trf(Key::CheckWhatHead, r.matrix.c_str(), r.head + 1) : trf(Key::CheckWhatEvery, r.matrix.c_str());
}

// "head 2, row 1 “quick”, column 3 “fox”": where the first wrong cell is, with the trace's token labels.
std::string cellWords(const AppState& s, const attn::CheckResult& r, const attn::WrongCell& w) {
  const attn::Trace& t = s.trace();
  const attn::MatrixInfo* info = attn::findMatrix(r.matrix);
  auto tokenText = [](const std::vector<attn::Token>& tokens, int i) {
    return i >= 0 && i < static_cast<int>(tokens.size()) ? tokens[static_cast<size_t>(i)].text : std::string();
  };
  const std::string row = tokenText(t.queryTokens, w.row);
  std::string at;
  if (info && info->cols == attn::Axis::KeyTokens)
    at = trf(Key::CheckCellAtKey, w.row, row.c_str(), w.col, tokenText(t.tokens, w.col).c_str());
  else
    at = trf(Key::CheckCellAt, w.row, row.c_str(), w.col);
  return w.head >= 0 && info && info->perHead() && s.config().heads > 1 ? trf(Key::CheckCellInHead, w.head + 1, at.c_str())
                                                                         : at;
}

// The step that shows the first wrong cell, its head, and the cell pinned (its arithmetic in the inspector; on a
// phone the drawer closes and the step scrolls the cell above the inspector sheet).
// How many frames the step keeps scrolling the first wrong cell (and its callout) into sight after showWrongCell: a
// new step's scroll range is known only once it has been drawn. UI-only state, like share_panel.cpp's.
int g_revealFrames = 0;

void showWrongCell(AppState& s) {
  const std::optional<CellRef> cell = checkWrongCell(s);
  if (!cell) return;
  const attn::MatrixInfo* info = attn::findMatrix(cell->matrix);
  if (info && info->step >= 1) goToStep(s, info->step - 1);  // the registry's steps count from 1
  if (info && info->perHead()) s.head = cell->head;
  s.pinned = *cell;
  s.sheetScrolledFor = CellRef{};
  g_revealFrames = 12;
  if (s.layout.narrow) s.drawerOpen = false;
}

void setColoredWrapped(ImU32 color, const std::string& text, float width) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  wrappedText(text, width);
  ImGui::PopStyleColor();
}

// The download buttons: one .npz (browsers hold back several downloads at once), JSON, CSV as a zip.
void drawInputDownloads(AppState& s, float width) {
  const ShareHandler handler = s.share.handler;
  const float half = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  ImGui::BeginDisabled(handler == nullptr || !s.pipeline.hasTrace());
  struct File {
    const char* format;
    const char* name;
    const char* mime;
  };
  auto download = [&](const File& f) {
    const std::string bytes = checkInputsFile(s, f.format);
    if (!bytes.empty()) handler("download", f.name, f.mime, bytes);
  };
  if (ImGui::Button(tr(Key::CheckDownloadNpz), ImVec2(width, 0))) download({"npz", "inputs.npz", "application/zip"});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", wrapAtSpaces(tr(Key::CheckDownloadTooltip), 28 * ImGui::GetFontSize()).c_str());
  const std::string json = std::string(tr(Key::CheckDownloadJson)) + "##check-inputs-json";
  if (ImGui::Button(json.c_str(), ImVec2(half, 0))) download({"json", "inputs.json", "application/json"});
  ImGui::SameLine();
  const std::string csv = std::string(tr(Key::CheckDownloadCsv)) + "##check-inputs-csv";
  if (ImGui::Button(csv.c_str(), ImVec2(half, 0))) download({"csv", "inputs-csv.zip", "application/zip"});
  ImGui::EndDisabled();
}

// Three lines of README's starter in the mono type, and a button that copies all of it.
// The mono font: the platform adds body, mono, heading in that order (src/app/fonts.cpp); the sidebar is drawn
// without the frame's Fonts.
ImFont* monoFont() {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return atlas && atlas->Fonts.Size >= 3 ? atlas->Fonts[1] : nullptr;
}

void drawStarter(AppState& s, float width) {
  ImGui::TextUnformatted(tr(Key::CheckStarterTitle));
  const ImGuiStyle& style = ImGui::GetStyle();
  ImFont* mono = monoFont();
  if (mono) ImGui::PushFont(mono);
  const float inner = width - 2 * style.FramePadding.x;
  const std::string shown = wrapAtSpaces(kStarterShown, inner);
  const ImVec2 size = ImGui::CalcTextSize(shown.c_str());
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + width, p0.y + size.y + 2 * style.FramePadding.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, IM_COL32(240, 242, 246, 255), style.FrameRounding);
  dl->AddRect(p0, p1, IM_COL32(200, 204, 212, 255), style.FrameRounding);
  dl->AddText(ImVec2(p0.x + style.FramePadding.x, p0.y + style.FramePadding.y), IM_COL32(30, 40, 60, 255), shown.c_str());
  ImGui::Dummy(ImVec2(width, p1.y - p0.y));
  if (mono) ImGui::PopFont();
  if (ImGui::Button(tr(Key::CheckCopyStarter), ImVec2(width, 0))) {
    ImGui::SetClipboardText(kNumpyStarter);
    setShareStatus(s, tr(Key::CheckStarterCopied), true);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", wrapAtSpaces(tr(Key::CheckStarterTooltip), 24 * ImGui::GetFontSize()).c_str());
}

// Dear ImGui 1.86's combo reports no label to the item hooks: name it, so tests and keyboard navigation find it.
void nameCombo(ImGuiID id, const char* name) {
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(id, name, 0);
  (void)g;
  (void)id;
  (void)name;
}

// Which matrix the learner brings back, and its head (every head: an (h, rows, cols) array).
void drawResultPickers(AppState& s, float width) {
  CheckState& c = s.check;
  const float half = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::CheckYourResult));
  ImGui::SetNextItemWidth(half);
  const bool matrixOpen = ImGui::BeginCombo("##check-matrix", c.matrix.c_str());
  nameCombo(ImGui::GetID("##check-matrix"), "check matrix picker");
  if (matrixOpen) {
    for (const char* name : kCheckable)
      if (ImGui::Selectable(name, c.matrix == name)) c.matrix = name;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  const attn::MatrixInfo* info = attn::findMatrix(c.matrix);
  const int heads = s.config().heads;
  if (c.head >= heads) c.head = -1;
  ImGui::SetNextItemWidth(half);
  if (!info || !info->perHead()) {
    ImGui::BeginDisabled();
    if (ImGui::BeginCombo("##check-head", tr(Key::CheckOneMatrixForAll), ImGuiComboFlags_NoArrowButton)) ImGui::EndCombo();
    ImGui::EndDisabled();
    return;
  }
  const std::string preview = c.head < 0 ? tr(Key::CheckEveryHead) : trf(Key::CheckHeadN, c.head + 1);
  const bool headOpen = ImGui::BeginCombo("##check-head", preview.c_str());
  nameCombo(ImGui::GetID("##check-head"), "check head picker");
  if (headOpen) {
    if (ImGui::Selectable(tr(Key::CheckEveryHead), c.head < 0)) c.head = -1;
    for (int h = 0; h < heads; ++h)
      if (ImGui::Selectable(trf(Key::CheckHeadN, h + 1).c_str(), c.head == h)) c.head = h;
    ImGui::EndCombo();
  }
}

int resizeString(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* str = static_cast<std::string*>(data->UserData);
    str->resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = str->data();
  }
  return 0;
}

// The paste field: a multi-line field over a std::string (on the page an HTML textarea laid over it, text_fields.h).
// True when it was submitted from the keyboard (Ctrl+Enter in the textarea: check it, as the button does).
bool drawPasteField(CheckState& c, float width) {
  const char* label = "##check-paste";
  const ImGuiID id = ImGui::GetID(label);
  std::string typedOnPage;
  bool commit = false;
  if (takeOverlayEdit(id, &typedOnPage, &commit)) c.paste = typedOnPage;
  const ImVec2 size(width, 4.0f * ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().FramePadding.y);
  ImGui::InputTextMultiline(label, c.paste.data(), c.paste.capacity() + 1, size, ImGuiInputTextFlags_CallbackResize,
                            resizeString, &c.paste);
  recordTextField(id, label, tr(Key::CheckPasteHint), c.paste, false, true);
  if (c.paste.empty() && !ImGui::IsItemActive()) {  // the hint ImGui 1.86's multi-line field does not draw
    const ImVec2 at(ImGui::GetItemRectMin().x + ImGui::GetStyle().FramePadding.x,
                    ImGui::GetItemRectMin().y + ImGui::GetStyle().FramePadding.y);
    ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_TextDisabled), tr(Key::CheckPasteHint));
  }
  return takeOverlaySubmit(id);
}

// Bring the result back: pick a file (the one way on a phone besides paste), paste text, or drop a file.
void drawBringBack(AppState& s, float width) {
  const ShareHandler handler = s.share.handler;
  ImGui::BeginDisabled(handler == nullptr);
  if (ImGui::Button(tr(Key::CheckChooseFile), ImVec2(width, 0))) handler("check-pick", "", "", "");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", wrapAtSpaces(tr(Key::CheckChooseTooltip), 24 * ImGui::GetFontSize()).c_str());
  const bool submitted = drawPasteField(s.check, width);
  if (ImGui::Button(tr(Key::CheckPasteButton), ImVec2(width, 0)) || submitted) {
    if (s.check.paste.find_first_not_of(" \t\r\n") == std::string::npos) {
      s.check.message = trf(Key::CheckRefused, tr(Key::CheckPasteEmpty));
      s.check.announceStep = s.step;
    } else
      checkResultBytes(s, "", -2, "", s.check.paste);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, kNoteText);
  wrappedText(tr(Key::CheckDropHint), width);
  ImGui::PopStyleColor();
}

// The answer: match, or the first wrong cell with both numbers; the diagnoses with their fixes; what this
// configuration cannot tell, with a configuration that can.
void drawAnswer(AppState& s, float width) {
  CheckState& c = s.check;
  if (!c.message.empty()) setColoredWrapped(kErrorText, c.message, width);
  if (!c.result) return;
  const attn::CheckResult& r = *c.result;
  const bool current = checkIsCurrent(s);
  const std::string what = checkedWhat(r);
  ImGui::Spacing();
  if (!current) setColoredWrapped(kWarningText, tr(Key::CheckStale), width);
  if (r.match) {
    setColoredWrapped(kOkText, trf(Key::CheckMatches, what.c_str(), static_cast<int>(r.cells), number(r.maxAbsDiff).c_str()),
                      width);
  } else if (r.firstWrong) {
    setColoredWrapped(kErrorText, trf(Key::CheckDiffers, what.c_str(), static_cast<int>(r.wrongCells),
                                      static_cast<int>(r.cells), number(r.maxAbsDiff).c_str()),
                      width);
    if (current) {
      const attn::WrongCell& w = *r.firstWrong;
      wrappedText(trf(Key::CheckFirstWrong, cellWords(s, r, w).c_str(), number(w.yours).c_str(),
                      number(w.expected).c_str()),
                  width);
      if (ImGui::Button(tr(Key::CheckShowCell), ImVec2(width, 0))) showWrongCell(s);
    }
  } else {
    setColoredWrapped(kErrorText, trf(Key::CheckShapeDiffers, what.c_str(), shapeText(r.yoursShape).c_str(),
                                      shapeText(r.expectedShape).c_str()),
                      width);
  }
  if (!r.diagnoses.empty()) {
    ImGui::TextUnformatted(tr(r.diagnoses[0].together >= 0 ? Key::CheckTogether : Key::CheckLikelyBugs));
    for (const attn::Diagnosis& d : r.diagnoses) {
      const attn::BugInfo& bug = attn::bugInfo(d.bug);
      ImGui::PushStyleColor(ImGuiCol_Text, kCautionText);
      ImGui::Bullet();
      ImGui::TextUnformatted(bug.name);
      ImGui::PopStyleColor();
      if (d.shapeOnly) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", tr(Key::CheckShapeOnly));
      }
      ImGui::Indent();
      wrappedText(fixText(bug), width - ImGui::GetStyle().IndentSpacing);
      ImGui::Unindent();
    }
  } else if (!r.match) {
    wrappedText(tr(Key::CheckNoBug), width);
  }
  for (size_t k = 0; k < r.cannotTell.size(); ++k) {
    const attn::CannotTell& hidden = r.cannotTell[k];
    const char* name = attn::bugInfo(hidden.bug).name;
    setColoredWrapped(kWarningText, trf(Key::CheckCannotTell, name), width);
    if (!hidden.config || !current) continue;
    const std::string label = std::string(tr(Key::CheckUseConfig)) + "##use-" + name;
    if (ImGui::Button(label.c_str(), ImVec2(width, 0))) {
      const attn::Config before = s.config();
      if (s.apply(*hidden.config, trf(Key::CheckUsedNotice, name)).empty()) c.before = before;
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", wrapAtSpaces(tr(Key::CheckUseConfigTooltip), 24 * ImGui::GetFontSize()).c_str());
  }
  if (c.before && ImGui::Button(tr(Key::CheckBack), ImVec2(width, 0))) {
    if (s.apply(*c.before).empty()) c.before.reset();
  }
}

}  // namespace

const char* numpyStarter() { return kNumpyStarter; }

std::string checkAnnouncement(const AppState& s) {
  const CheckState& c = s.check;
  if (c.announceStep != s.step) return "";
  if (!c.message.empty()) return trf(Key::AnnounceCheck, c.message.c_str());
  if (!c.result || !checkIsCurrent(s)) return "";
  const attn::CheckResult& r = *c.result;
  const std::string what = checkedWhat(r);
  std::string answer;
  if (r.match) {
    answer = trf(Key::CheckMatches, what.c_str(), static_cast<int>(r.cells), number(r.maxAbsDiff).c_str());
  } else if (r.firstWrong) {
    const attn::WrongCell& w = *r.firstWrong;
    answer = trf(Key::CheckDiffers, what.c_str(), static_cast<int>(r.wrongCells), static_cast<int>(r.cells),
                 number(r.maxAbsDiff).c_str()) +
             tr(Key::AnnounceSentenceEnd) + trf(Key::CheckFirstWrong, cellWords(s, r, w).c_str(), number(w.yours).c_str(),
                        number(w.expected).c_str());
  } else {
    answer = trf(Key::CheckShapeDiffers, what.c_str(), shapeText(r.yoursShape).c_str(),
                 shapeText(r.expectedShape).c_str()) + tr(Key::AnnounceSentenceEnd);
  }
  if (!r.diagnoses.empty()) {
    answer += std::string(" ") + tr(r.diagnoses[0].together >= 0 ? Key::CheckTogether : Key::CheckLikelyBugs);
    for (const attn::Diagnosis& d : r.diagnoses) {
      const attn::BugInfo& bug = attn::bugInfo(d.bug);
      answer += std::string(" ") + bug.name + ": " + fixText(bug) + tr(Key::AnnounceSentenceEnd);
    }
  } else if (!r.match) {
    answer += std::string(" ") + tr(Key::CheckNoBug);
  }
  for (const attn::CannotTell& hidden : r.cannotTell)
    answer += " " + trf(Key::CheckCannotTell, attn::bugInfo(hidden.bug).name);
  return trf(Key::AnnounceCheck, answer.c_str());
}

std::string checkInputsFile(const AppState& s, const std::string& format) {
  if (!s.pipeline.hasTrace()) return "";
  const attn::Config c = attn::checkableConfig(s.config());
  std::optional<attn::Trace> own;  // only when the geometric view's overrides are left out
  const attn::Trace* t = &s.trace();
  if (!(c == s.config())) {
    own = attn::computeTrace(c);
    t = &*own;
  }
  const std::vector<attn::InputArray> arrays = attn::inputArrays(*t);
  if (format == "npz") return attn::inputsNpz(arrays);
  if (format == "json") return attn::inputsJson(arrays);
  if (format == "csv") return attn::writeZipStored(attn::inputsCsvFiles(arrays));
  return "";
}

std::string checkResultBytes(AppState& s, const std::string& matrixIn, int headIn, const std::string& name,
                             const std::string& bytes) {
  CheckState& c = s.check;
  const std::string named = matrixNamedBy(name);
  const std::string matrix = !matrixIn.empty() ? matrixIn : !named.empty() ? named : c.matrix;
  const int head = headIn < -1 ? c.head : headIn;
  const std::string what = name.empty() ? tr(Key::CheckPastedWhat) : "“" + name + "”";
  auto refuse = [&](const std::string& why) {
    c.message = trf(Key::CheckRefused, why.c_str());
    c.announceStep = s.step;
    return c.message;
  };
  if (!s.pipeline.hasTrace()) return refuse(tr(Key::CheckNoTrace));
  if (bytes.size() > kMaxResultBytes)
    return refuse(trf(Key::CheckTooBig, what.c_str(), static_cast<int>(bytes.size() >> 20),
                      static_cast<int>(kMaxResultBytes >> 20)));
  try {
    const attn::NdArray yours = attn::readResultFile(bytes, what);
    attn::CheckResult r = attn::checkResult(s.config(), matrix, head, yours);
    c.matrix = r.matrix;
    c.head = head;
    c.resultJson = attn::checkResultJson(r, -1);
    c.result = std::move(r);
    c.source = name;
    c.comparedWith = s.config();
    c.currentAt = -1;
    c.message.clear();
    showWrongCell(s);
    c.announceStep = s.step;  // the step that shows the wrong cell (or the one the learner is on)
    return "";
  } catch (const attn::InputError& e) {
    if (e.id() == "CheckWhichHead") return refuse(trf(Key::CheckPickHead, s.config().heads, matrix.c_str()));
    return refuse(errorText(e));
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
}

bool checkIsCurrent(const AppState& s) {
  const CheckState& c = s.check;
  if (c.currentAt != s.traceVersion) {
    c.current = c.result && c.comparedWith && *c.comparedWith == s.config();
    c.currentAt = s.traceVersion;
  }
  return c.current;
}

std::optional<CellRef> checkWrongCell(const AppState& s) {
  const CheckState& c = s.check;
  if (!c.result || !c.result->firstWrong || !checkIsCurrent(s)) return std::nullopt;
  const attn::WrongCell& w = *c.result->firstWrong;
  CellRef cell;
  cell.matrix = c.result->matrix;
  cell.head = std::max(0, w.head);
  cell.row = w.row;
  cell.col = w.col;
  return cell;
}

void drawCheckCallout(const AppState& s, const GridContext& grids) {
  if (!grids.checkCell || !s.check.result || !s.check.result->firstWrong) return;
  const attn::WrongCell& w = *s.check.result->firstWrong;
  const auto [cell0, cell1] = *grids.checkCell;
  const std::string yours = trf(Key::CheckCalloutYours, number(w.yours).c_str());
  const std::string expected = trf(Key::CheckCalloutExpected, number(w.expected).c_str());
  const float em = ImGui::GetFontSize();
  const ImVec2 a = ImGui::CalcTextSize(yours.c_str()), b = ImGui::CalcTextSize(expected.c_str());
  const ImVec2 pad(0.4f * em, 0.2f * em);
  const ImVec2 size(std::max(a.x, b.x) + 2 * pad.x, a.y + b.y + 2 * pad.y);
  // Below the cell, unless that runs past what can be seen (the window's bottom, or the narrow layout's inspector
  // sheet over it): then above. Kept inside the window's width.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip0 = dl->GetClipRectMin(), clip1 = dl->GetClipRectMax();
  float bottom = clip1.y;
  if (s.layout.narrow && s.pinned.valid()) bottom = std::min(bottom, inspectorSheetTop(s));
  const float gap = 0.25f * em;
  if (g_revealFrames > 0) {  // just checked: the cell with its callout below it in sight (the step may have scrolled)
    --g_revealFrames;
    const float margin = 0.5f * em;
    if (cell1.y + gap + size.y + margin > bottom)
      ImGui::SetScrollY(ImGui::GetScrollY() + (cell1.y + gap + size.y + margin - bottom));
    else if (cell0.y - margin < clip0.y)
      ImGui::SetScrollY(ImGui::GetScrollY() - (clip0.y - (cell0.y - margin)));
  }
  float y = cell1.y + gap;
  if (y + size.y > bottom && cell0.y - gap - size.y >= clip0.y) y = cell0.y - gap - size.y;
  const float x = std::clamp(cell0.x, clip0.x + 2, std::max(clip0.x + 2, clip1.x - size.x - 2));
  const ImVec2 p0(x, y), p1(x + size.x, y + size.y);
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 250), 0.25f * em);
  dl->AddRect(p0, p1, kCheckOutline, 0.25f * em, 0, std::max(1.5f, 0.1f * em));
  dl->AddText(ImVec2(p0.x + pad.x, p0.y + pad.y), kCheckOutline, yours.c_str());
  dl->AddText(ImVec2(p0.x + pad.x, p0.y + pad.y + a.y), kOkText, expected.c_str());
}

std::string checkStateJson(const AppState& s) {
  const CheckState& c = s.check;
  nlohmann::json j;
  j["matrix"] = c.matrix;
  j["head"] = c.head >= 0 ? nlohmann::json(c.head) : nlohmann::json(nullptr);
  j["panel_open"] = c.panelOpen;
  j["source"] = c.source;
  j["message"] = c.message;
  j["result"] = c.result ? nlohmann::json::parse(c.resultJson) : nlohmann::json(nullptr);
  j["current"] = checkIsCurrent(s);
  const std::optional<CellRef> cell = checkWrongCell(s);
  j["outlined"] = cell ? nlohmann::json{{"matrix", cell->matrix}, {"head", cell->head}, {"row", cell->row},
                                        {"col", cell->col}}
                       : nlohmann::json(nullptr);
  j["can_go_back"] = c.before.has_value();
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void drawCheckPanel(AppState& s) {
  CheckState& c = s.check;
  c.panelOpen = ImGui::CollapsingHeader(tr(Key::CheckHeader));
  if (!c.panelOpen) return;
  ImGui::PushID("check-panel");
  const float width = ImGui::GetContentRegionAvail().x;
  wrappedText(tr(Key::CheckLead), width);
  drawInputDownloads(s, width);
  drawStarter(s, width);
  ImGui::Spacing();
  drawResultPickers(s, width);
  drawBringBack(s, width);
  drawAnswer(s, width);
  ImGui::PopID();
}

}  // namespace ui
