// The inputs download (inputs.h).
#include "core/check/inputs.h"

#include "core/io/npy.h"
#include "core/io/text_arrays.h"

namespace attn {

Config checkableConfig(const Config& config, std::vector<std::string>* notes) {
  Config c = config;
  if (c.queryOverride) {
    c.queryOverride.reset();
    if (notes) notes->push_back("the dragged query (geometric view) is not part of the inputs: it is left out");
  }
  if (c.directionOnly) {
    c.directionOnly = false;
    if (notes) notes->push_back("\"direction only\" (geometric view) is not part of the inputs: it is left out");
  }
  return c;
}

std::vector<InputArray> inputArrays(const Trace& t) {
  const Config& c = t.config;
  std::vector<InputArray> out;
  out.push_back({"X", ndArrayOf(t.X)});                   // (L_kv,d_model)
  if (c.cross) out.push_back({"X_q", ndArrayOf(t.Xq)});  // (L_q,d_model)
  out.push_back({"W_q", ndArrayOf(t.Wq)});                // (d_model,h·d_k)
  out.push_back({"W_k", ndArrayOf(t.Wk)});                // (d_model,h·d_k)
  out.push_back({"W_v", ndArrayOf(t.Wv)});                // (d_model,h·d_v)
  out.push_back({"W_o", ndArrayOf(t.Wo)});                // (h·d_v,d_model)
  const struct {
    const char* name;
    const Matrix* whole;
    int width;
  } perHead[] = {{"W_q_heads", &t.Wq, c.dK}, {"W_k_heads", &t.Wk, c.dK}, {"W_v_heads", &t.Wv, c.dV}};
  for (const auto& w : perHead) {
    std::vector<Matrix> slices;
    for (int h = 0; h < c.heads; ++h) slices.push_back(w.whole->middleCols(h * w.width, w.width));  // (d_model,d)
    out.push_back({w.name, ndArrayOf(slices)});  // (h,d_model,d)
  }
  // A pretrained block's biases (Config::biases, GPT-2): Q = X·W_q + b_q … output = concat·W_o + b_o.
  const struct {
    const char* name;
    const Matrix* bias;
  } biases[] = {{"b_q", &t.bq}, {"b_k", &t.bk}, {"b_v", &t.bv}, {"b_o", &t.bo}};
  for (const auto& b : biases)
    if (b.bias->size() > 0) out.push_back({b.name, ndArrayOf(*b.bias)});  // (1,width)
  out.push_back({"mask", ndArrayOf(t.maskAdd)});  // (L_q,L_kv) of 0 / −∞
  out.push_back({"scale", ndScalar(t.scale)});
  out.push_back({"heads", ndScalar(c.heads, true)});
  out.push_back({"d_k", ndScalar(c.dK, true)});
  out.push_back({"d_v", ndScalar(c.dV, true)});
  return out;
}

std::string inputsNpz(const std::vector<InputArray>& arrays) {
  std::vector<ZipEntry> entries;
  for (const InputArray& a : arrays) entries.push_back({a.name + ".npy", writeNpy(a.array)});
  return writeZipStored(entries);
}

std::string inputsJson(const std::vector<InputArray>& arrays) {
  std::string out = "{\n";
  for (size_t k = 0; k < arrays.size(); ++k) {
    out += "  \"" + arrays[k].name + "\": " + writeJsonArray(arrays[k].array, 0);
    out += k + 1 < arrays.size() ? ",\n" : "\n";
  }
  return out + "}\n";
}

std::vector<ZipEntry> inputsCsvFiles(const std::vector<InputArray>& arrays) {
  std::vector<ZipEntry> files;
  for (const InputArray& a : arrays) {
    if (a.array.shape.size() == 3) {
      for (int64_t h = 0; h < a.array.shape[0]; ++h)
        files.push_back({a.name + std::to_string(h) + ".csv", writeCsvArray(ndArrayOf(a.array.matrix(h)))});
    } else {
      files.push_back({a.name + ".csv", writeCsvArray(a.array)});
    }
  }
  return files;
}

}  // namespace attn
