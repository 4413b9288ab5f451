// Check my implementation (check.h): read the learner's file, line it up with the trace's matrix, compare, diagnose.
#include "core/check/check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/check/inputs.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/io/npy.h"
#include "core/io/text_arrays.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/shape_text.h"

namespace attn {

bool checkClose(double yours, double expected) {
  if (std::isnan(yours) || std::isnan(expected)) return std::isnan(yours) && std::isnan(expected);
  if (yours == expected) return true;  // also the same infinity
  if (std::isinf(yours) || std::isinf(expected)) return false;
  return std::fabs(yours - expected) <= kCheckAbsTolerance + kCheckRelTolerance * std::fabs(expected);
}

NdArray readResultFile(const std::string& bytes, const std::string& what) {
  if (looksLikeNpy(bytes)) return readNpy(bytes, what);
  size_t first = bytes.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a BOM
  while (first < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[first]))) ++first;
  if (first == bytes.size()) throw InputError(what + " is empty", "CheckEmptyFile", {what});
  if (bytes[first] == '[' || bytes[first] == '{') return readJsonArray(bytes.substr(first), what);
  return readCsvArray(bytes, what);
}

namespace {

using Slices = std::vector<Matrix>;  // one matrix per head checked, or the one matrix of the layer

bool sameShape(const Slices& a, const Slices& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].rows() != b[k].rows() || a[k].cols() != b[k].cols()) return false;
  return true;
}

bool allClose(const Slices& yours, const Slices& expected) {
  if (!sameShape(yours, expected)) return false;
  for (size_t k = 0; k < yours.size(); ++k)
    for (Eigen::Index i = 0; i < yours[k].size(); ++i)
      if (!checkClose(yours[k].data()[i], expected[k].data()[i])) return false;
  return true;
}

bool allFinite(const Slices& m) {
  for (const Matrix& s : m)
    if (!s.allFinite()) return false;
  return true;
}

std::vector<int64_t> shapeOf(const Slices& m, bool stacked) {
  if (stacked) return {static_cast<int64_t>(m.size()), m[0].rows(), m[0].cols()};
  return {m[0].rows(), m[0].cols()};
}

std::string shapeWords(const std::vector<int64_t>& shape) {
  std::string text;
  for (size_t k = 0; k < shape.size(); ++k) text += (k ? "x" : "") + std::to_string(shape[k]);
  return text;
}

// The trace's own matrix `info` for each head in `heads` (or the layer's one).
Slices expectedOf(const Trace& t, const MatrixInfo& info, const std::vector<int>& heads) {
  Slices out;
  if (!info.perHead()) {
    out.push_back(*info.read(t, 0));
    return out;
  }
  for (int h : heads) out.push_back(*info.read(t, h));
  return out;
}

// Whether every variant of `bug` gives, in `t`, a result other than the right one (or none: numpy would raise).
bool revealsBug(const Trace& t, const MatrixInfo& info, const std::vector<int>& heads, BugId bug) {
  const Slices expected = expectedOf(t, info, heads);
  bool any = false;
  for (const Variant& v : bugVariants(t, info.id)) {
    if (v.bug != bug) continue;
    any = true;
    const std::optional<Slices> result = variantResult(t, v, info.id, heads);
    if (result && allClose(*result, expected)) return false;
  }
  return any;
}

// Whether the searches (two bugs at once, a configuration that tells) are cheap enough: each recomputes the layer
// or its heads some tens of times.
bool smallEnoughToSearch(const Trace& t) {
  Eigen::Index numbers = t.X.size() + t.Xq.size() + t.Wq.size() + t.Wv.size() + t.Wo.size();
  for (const HeadTrace& h : t.heads) numbers += h.A.size();
  return numbers <= 200000;
}

// A configuration of the same shapes in which `bug` shows: another seed (when anything is seeded), or the inputs X
// (and X_q) scaled — down to unsaturate a softmax that hides a scale, up to overflow an unshifted exp. The first
// that reveals it (recomputed and checked) wins; none when nothing tried does.
std::optional<Config> separatingConfig(const Config& c, const Trace& t, const MatrixInfo& info,
                                       const std::vector<int>& heads, BugId bug) {
  std::vector<Config> trials;
  const bool seeded = !c.X || (c.cross && !c.Xq) || !c.Wq || !c.Wk || !c.Wv || !c.Wo;
  auto scaled = [&](double factor) {
    Config n = c;
    n.X = t.X * factor;  // (L_kv,d_model), explicit: the same rows, scaled
    if (c.cross) n.Xq = t.Xq * factor;
    n.padTo = 0;
    return n;
  };
  if (bug == BugId::NoMaxSubtraction) {
    for (double f : {4.0, 16.0, 64.0, 256.0, 1024.0}) trials.push_back(scaled(f));
  } else {
    if (seeded)
      for (uint64_t k = 1; k <= 6; ++k) {
        Config n = c;
        n.seed = c.seed + k;
        trials.push_back(n);
      }
    for (double f : {0.5, 0.2, 0.1, 0.05, 0.02, 0.01}) trials.push_back(scaled(f));
  }
  for (const Config& n : trials) {
    try {
      validate(n);
      const Trace nt = computeTrace(n);
      if (revealsBug(nt, info, heads, bug)) return n;
    } catch (const InputError&) {  // e.g. a scaled value beyond the limits: try the next
    }
  }
  return std::nullopt;
}

// The learner's array as one matrix per head checked (per-head matrices), or the layer's one matrix; fills `heads`.
Slices linedUp(const NdArray& yours, const MatrixInfo& info, int head, int headCount, std::vector<int>* heads,
               std::vector<std::string>* notes) {
  NdArray y = yours;
  if (y.shape.empty())
    throw InputError("the result is a single number, not a matrix", "CheckScalarResult", {});
  if (y.shape.size() == 1) y.shape.insert(y.shape.begin(), 1);  // a vector: one row
  for (int64_t d : y.shape)
    if (d == 0) throw InputError("the result " + shapeTuple(y.shape) + " is empty", "CheckEmptyResult", {shapeTuple(y.shape)});
  const std::string name = info.name;
  Slices out;
  if (!info.perHead()) {
    if (head >= 0) notes->push_back("--head is ignored: " + name + " is one matrix for every head");
    if (y.shape.size() == 3 && y.shape[0] != 1)
      throw InputError("the result has " + std::to_string(y.shape[0]) + " matrices " + shapeTuple(y.shape) + "; " +
                           name + " is one matrix for every head",
                       "CheckOneMatrix", {shapeTuple(y.shape), name});
    out.push_back(y.matrix(0));
    return out;
  }
  if (y.shape.size() == 3) {
    if (y.shape[0] != headCount)
      throw InputError("the result has " + std::to_string(y.shape[0]) + " matrices " + shapeTuple(y.shape) +
                           ", the configuration " + std::to_string(headCount) + " heads",
                       "CheckHeadCount", {shapeTuple(y.shape), std::to_string(headCount)});
    if (head >= 0) {
      heads->push_back(head);
      out.push_back(y.matrix(head));
    } else {
      for (int h = 0; h < headCount; ++h) {
        heads->push_back(h);
        out.push_back(y.matrix(h));
      }
    }
    return out;
  }
  if (head < 0) {
    if (headCount > 1)
      throw InputError("the configuration has " + std::to_string(headCount) + " heads: say which one this " + name +
                           " is (--head 0 … " + std::to_string(headCount - 1) + "), or give every head's as an (h, " +
                           "rows, cols) array",
                       "CheckWhichHead", {name, std::to_string(headCount)});
    head = 0;
  }
  heads->push_back(head);
  out.push_back(y.matrix(0));
  return out;
}

}  // namespace

CheckResult checkResult(const Config& config, const std::string& matrix, int head, const NdArray& yours) {
  const MatrixInfo* info = findMatrix(matrix);
  if (!info || !checkableMatrix(info->id))
    throw InputError("'" + matrix + "' cannot be checked: give S, S_scaled, A, O, concat or output",
                     "CheckUnknownMatrix", {matrix});
  CheckResult r;
  r.matrix = info->name;
  const Config c = checkableConfig(config, &r.notes);
  const Trace t = computeTrace(c);
  if (head < -1 || head >= c.heads)
    throw InputError("head " + std::to_string(head) + " does not exist: the configuration has " +
                         std::to_string(c.heads) + (c.heads == 1 ? " head (0)" : " heads (0 … " + std::to_string(c.heads - 1) + ")"),
                     "CheckHeadRange", {std::to_string(head), std::to_string(c.heads)});
  std::vector<int> heads;
  const Slices mine = linedUp(yours, *info, head, c.heads, &heads, &r.notes);
  const bool stacked = yours.shape.size() == 3 && heads.size() != 1;
  r.head = info->perHead() && heads.size() == 1 ? heads[0] : -1;
  const Slices expected = expectedOf(t, *info, heads);
  r.yoursShape = shapeOf(mine, stacked);
  r.expectedShape = shapeOf(expected, stacked);

  // Cell by cell, in row-major order head by head.
  const bool shapesEqual = sameShape(mine, expected);
  if (shapesEqual) {
    r.maxAbsDiff = 0;
    for (size_t k = 0; k < mine.size(); ++k)
      for (Eigen::Index i = 0; i < mine[k].rows(); ++i)
        for (Eigen::Index j = 0; j < mine[k].cols(); ++j) {
          const double y = mine[k](i, j), e = expected[k](i, j);
          ++r.cells;
          const double diff = y == e ? 0.0 : std::fabs(y - e);  // NaN when either is NaN
          if (std::isnan(diff) || std::isnan(r.maxAbsDiff)) r.maxAbsDiff = std::numeric_limits<double>::quiet_NaN();
          else r.maxAbsDiff = std::max(r.maxAbsDiff, diff);
          if (checkClose(y, e)) continue;
          ++r.wrongCells;
          if (!r.firstWrong)
            r.firstWrong = WrongCell{info->perHead() ? heads[k] : -1, static_cast<int>(i), static_cast<int>(j), y, e};
        }
    r.match = r.wrongCells == 0;
  } else {
    r.maxAbsDiff = std::numeric_limits<double>::quiet_NaN();
  }

  // Every bug's result from the same inputs.
  const std::vector<Variant> variants = bugVariants(t, info->id);
  std::vector<std::optional<Slices>> results;
  for (const Variant& v : variants) results.push_back(variantResult(t, v, info->id, heads));
  auto listed = [&](BugId bug) {
    for (const Diagnosis& d : r.diagnoses)
      if (d.bug == bug) return true;
    return false;
  };

  if (r.match) {  // right here; which bugs would have been right here too?
    std::vector<BugId> hidden;
    for (size_t k = 0; k < variants.size(); ++k)
      if (results[k] && allClose(*results[k], expected) &&
          std::find(hidden.begin(), hidden.end(), variants[k].bug) == hidden.end())
        hidden.push_back(variants[k].bug);
    for (BugId bug : hidden)
      r.cannotTell.push_back(
          {bug, smallEnoughToSearch(t) ? separatingConfig(c, t, *info, heads, bug) : std::optional<Config>()});
    return r;
  }

  for (size_t k = 0; k < variants.size(); ++k) {
    if (!results[k] || listed(variants[k].bug)) continue;
    if (allClose(*results[k], expected)) continue;  // indistinguishable from the right result here
    if (allClose(mine, *results[k])) r.diagnoses.push_back({variants[k].bug, false});
  }
  if (r.diagnoses.empty() && smallEnoughToSearch(t)) {  // two bugs at once: the first pair (in table order) that fits
    for (size_t a = 0; a < variants.size() && r.diagnoses.empty(); ++a)
      for (size_t b = a + 1; b < variants.size() && r.diagnoses.empty(); ++b) {
        if (variants[a].bug == variants[b].bug) continue;
        const std::optional<Variant> both = combineVariants(variants[a], variants[b]);
        if (!both) continue;
        const std::optional<Slices> result = variantResult(t, *both, info->id, heads);
        if (!result || allClose(*result, expected) || !allClose(mine, *result)) continue;
        r.diagnoses.push_back({variants[a].bug, false, 1});
        r.diagnoses.push_back({variants[b].bug, false, 0});
      }
  }
  if (r.diagnoses.empty() && !shapesEqual) {
    for (size_t k = 0; k < variants.size(); ++k)
      if (results[k] && sameShape(mine, *results[k]) && !listed(variants[k].bug))
        r.diagnoses.push_back({variants[k].bug, true});
    if (r.diagnoses.empty())
      throw InputError(r.matrix + " is " + shapeWords(r.yoursShape) + ", expected " + shapeWords(r.expectedShape) +
                           " " + (stacked ? "(h, " : "(") + std::string(shapeSymbol(*info)).substr(1) +
                           "; no listed bug gives " + shapeWords(r.yoursShape),
                       "CheckShapeUnexplained", {r.matrix, shapeWords(r.yoursShape), shapeWords(r.expectedShape)});
  }
  bool explained = false;
  for (const Diagnosis& d : r.diagnoses) explained = explained || !d.shapeOnly;
  if (!explained && !allFinite(mine)) {
    for (size_t k = 0; k < mine.size(); ++k)
      for (Eigen::Index i = 0; i < mine[k].rows(); ++i)
        for (Eigen::Index j = 0; j < mine[k].cols(); ++j)
          if (!std::isfinite(mine[k](i, j))) {
            const std::string where = (info->perHead() ? "head " + std::to_string(heads[k]) + ", " : std::string()) +
                                      "row " + std::to_string(i) + ", col " + std::to_string(j);
            const std::string value = std::isnan(mine[k](i, j)) ? "NaN" : formatNumber(mine[k](i, j));
            throw InputError(r.matrix + " has " + value + " at " + where +
                                 " and no listed bug explains it (the right numbers are all finite)",
                             "CheckNonFiniteUnexplained", {r.matrix, value, where});
          }
  }
  return r;
}

namespace {

using ojson = nlohmann::ordered_json;

ojson number(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

}  // namespace

std::string checkResultJson(const CheckResult& r, int indent) {
  ojson out;
  out["match"] = r.match;
  out["max_abs_diff"] = number(r.maxAbsDiff);
  if (r.firstWrong) {
    const WrongCell& w = *r.firstWrong;
    out["first_wrong"] = ojson{{"matrix", r.matrix}, {"head", w.head >= 0 ? ojson(w.head) : ojson(nullptr)},
                               {"row", w.row}, {"col", w.col}, {"yours", number(w.yours)},
                               {"expected", number(w.expected)}};
  } else {
    out["first_wrong"] = nullptr;
  }
  ojson ids = ojson::array(), shapeOnly = ojson::array(), fixes = ojson::object();
  for (const Diagnosis& d : r.diagnoses) {
    const BugInfo& b = bugInfo(d.bug);
    ids.push_back(b.name);
    if (d.shapeOnly) shapeOnly.push_back(b.name);
    fixes[b.name] = b.fix;
  }
  out["diagnoses"] = ids;
  out["together"] = r.diagnoses.size() == 2 && r.diagnoses[0].together == 1;  // both bugs at once
  out["shape_only"] = shapeOnly;
  out["fixes"] = fixes;
  ojson hidden = ojson::array();
  for (const CannotTell& h : r.cannotTell)
    hidden.push_back(ojson{{"bug", bugInfo(h.bug).name},
                           {"config", h.config ? ojson::parse(configToJson(*h.config, -1)) : ojson(nullptr)}});
  out["cannot_tell"] = hidden;
  out["matrix"] = r.matrix;
  out["head"] = r.head >= 0 ? ojson(r.head) : ojson(nullptr);
  out["shape"] = ojson{{"yours", r.yoursShape}, {"expected", r.expectedShape}};
  out["wrong_cells"] = r.wrongCells;
  out["cells"] = r.cells;
  out["notes"] = r.notes;
  return out.dump(indent) + "\n";
}

std::string checkResultText(const CheckResult& r) {
  const std::string what = r.matrix + (r.head >= 0 ? " (head " + std::to_string(r.head) + ")" : "");
  std::string out;
  for (const std::string& note : r.notes) out += "note: " + note + "\n";
  if (r.match) {
    out += what + ": matches (" + std::to_string(r.cells) + " cells, max |yours - expected| = " +
           formatNumber(r.maxAbsDiff) + ")\n";
  } else if (r.firstWrong) {
    const WrongCell& w = *r.firstWrong;
    out += what + ": does not match: " + std::to_string(r.wrongCells) + " of " + std::to_string(r.cells) +
           " cells differ, max |yours - expected| = " + formatNumber(r.maxAbsDiff) + "\n";
    out += "first wrong cell: " + (w.head >= 0 ? "head " + std::to_string(w.head) + ", " : std::string()) + "row " +
           std::to_string(w.row) + ", col " + std::to_string(w.col) + ": yours " + formatNumber(w.yours) +
           ", expected " + formatNumber(w.expected) + "\n";
  } else {
    out += what + ": your shape is " + shapeWords(r.yoursShape) + ", expected " + shapeWords(r.expectedShape) + "\n";
  }
  for (const Diagnosis& d : r.diagnoses) {
    const BugInfo& b = bugInfo(d.bug);
    out += std::string(d.shapeOnly ? "your shape fits: " : d.together >= 0 ? "likely bug (two at once): " : "likely bug: ") +
           b.name + ": " + b.fix + "\n";
  }
  if (!r.match && r.diagnoses.empty()) out += "no listed bug explains the difference\n";
  for (const CannotTell& h : r.cannotTell)
    out += std::string("this configuration cannot tell ") + bugInfo(h.bug).name + " from the right result" +
           (h.config ? " (--format json gives a configuration that can)" : "") + "\n";
  return out;
}

}  // namespace attn
