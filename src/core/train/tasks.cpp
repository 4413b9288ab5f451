// Built-in tasks: vocabularies, generators, held-out split, expected attention, accuracy, a training loop (tasks.h).
#include "core/train/tasks.h"

#include <algorithm>
#include <stdexcept>

#include "core/defaults.h"
#include "core/errors.h"

namespace attn::train {

namespace {

std::vector<std::string> digits(int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(std::to_string(i));
  return out;
}

int uniformInt(Rng& rng, int count) { return static_cast<int>(rng.next() % static_cast<uint64_t>(count)); }

// ---- key–value lookup: tokens 0..7 letters a..h, 8..17 digits 0..9, 18 "?"
constexpr int kKvLetters = 8, kKvDigits = 10, kKvQuery = kKvLetters + kKvDigits;

// ---- toy translation lexicon
struct Noun {
  const char* en;
  const char* fr;
  bool feminine;
};
const Noun kNouns[] = {{"cat", "chat", false},   {"dog", "chien", false},   {"bird", "oiseau", false},
                       {"fish", "poisson", false}, {"horse", "cheval", false}, {"mouse", "souris", true},
                       {"cow", "vache", true},    {"girl", "fille", true}};
struct Adjective {
  const char* en;
  const char* frMasculine;
  const char* frFeminine;
};
// Colours and the like: in French they follow the noun.
const Adjective kAdjectives[] = {{"black", "noir", "noire"}, {"white", "blanc", "blanche"}, {"green", "vert", "verte"},
                                 {"red", "rouge", "rouge"},   {"grey", "gris", "grise"},     {"happy", "content", "contente"}};
struct Verb {
  const char* en;
  const char* fr;
};
const Verb kVerbs[] = {{"sleeps", "dort"}, {"eats", "mange"}, {"runs", "court"},
                       {"sees", "voit"},   {"likes", "aime"}, {"chases", "chasse"}};
struct Determiner {
  const char* en;
  const char* frMasculine;
  const char* frFeminine;
};
const Determiner kDeterminers[] = {{"the", "le", "la"}, {"a", "un", "une"}};

std::vector<std::string> englishVocab() {
  std::vector<std::string> v;
  for (const auto& d : kDeterminers) v.push_back(d.en);
  for (const auto& n : kNouns) v.push_back(n.en);
  for (const auto& a : kAdjectives) v.push_back(a.en);
  for (const auto& w : kVerbs) v.push_back(w.en);
  return v;
}
std::vector<std::string> frenchVocab() {
  std::vector<std::string> v = {"<bos>", "<eos>"};
  auto add = [&v](const std::string& w) {
    if (std::find(v.begin(), v.end(), w) == v.end()) v.push_back(w);
  };
  for (const auto& d : kDeterminers) {
    add(d.frMasculine);
    add(d.frFeminine);
  }
  for (const auto& n : kNouns) add(n.fr);
  for (const auto& a : kAdjectives) {
    add(a.frMasculine);
    add(a.frFeminine);
  }
  for (const auto& w : kVerbs) add(w.fr);
  return v;
}
int idOf(const std::vector<std::string>& vocab, const std::string& word) {
  const auto it = std::find(vocab.begin(), vocab.end(), word);
  if (it == vocab.end()) throw std::logic_error("tasks: word not in vocabulary: " + word);
  return static_cast<int>(it - vocab.begin());
}

uint64_t exampleHash(const Example& ex) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  auto mix = [&h](const std::vector<int>& tokens) {
    for (int t : tokens) h = splitmix64(h ^ static_cast<uint64_t>(t + 1));
    h = splitmix64(h ^ 0xFFull);
  };
  mix(ex.source);
  mix(ex.input);
  mix(ex.target);
  return h;
}

}  // namespace

std::vector<TaskKind> allTasks() {
  return {TaskKind::PreviousToken, TaskKind::Reverse, TaskKind::Sort, TaskKind::KeyValue, TaskKind::Translation};
}

bool parseTaskName(const std::string& name, TaskKind* out) {
  for (TaskKind k : allTasks())
    if (taskInfo(k).name == name) {
      *out = k;
      return true;
    }
  return false;
}

TaskInfo taskInfo(TaskKind kind) {
  TaskInfo t;
  t.kind = kind;
  t.adam.learningRate = 3e-3;
  t.adam.warmupSteps = 20;
  t.adam.clipNorm = 1.0;
  ModelConfig& m = t.model;
  switch (kind) {
    case TaskKind::PreviousToken:
      t.name = "previous-token";
      t.description = "predict the previous token";
      t.inputFormat = "8 tokens of 10 symbols; the target at position t is the token at t-1 (t = 0 does not count): "
                      "3 1 4 1 5 9 2 6 -> _ 3 1 4 1 5 9 2";
      t.expectedPattern = "position t attends to t-1 (the first layer)";
      t.vocab = digits(10);
      m.layers = defaults::train.layers;
      m.heads = defaults::train.heads;
      m.dModel = defaults::train.dModel;
      m.dK = m.dV = defaults::train.dK;
      m.causal = true;
      t.steps = defaults::train.steps;
      t.batch = defaults::train.batch;
      t.adam.learningRate = defaults::train.learningRate;
      break;
    case TaskKind::Reverse:
      t.name = "reverse";
      t.description = "output the sequence reversed";
      t.inputFormat = "8 tokens of 10 symbols; the target at position t is the token at 7-t: "
                      "3 1 4 1 5 9 2 6 -> 6 2 9 5 1 4 1 3";
      t.expectedPattern = "position t attends to 7-t (the first layer)";
      t.vocab = digits(10);
      m.layers = defaults::train.layers;
      m.heads = defaults::train.heads;
      m.dModel = defaults::train.dModel;
      m.dK = m.dV = defaults::train.dK;
      m.causal = false;
      t.steps = defaults::train.steps;
      t.batch = defaults::train.batch;
      t.adam.learningRate = defaults::train.learningRate;
      break;
    case TaskKind::Sort:
      t.name = "sort";
      t.description = "sort 6 digits of {0,1,2}, predicting the sorted digits one by one";
      t.inputFormat = "6 digits then the same sorted; input = the 12 tokens but the last, target = the 12 but the "
                      "first; only the 6 sorted positions count: 2 0 1 1 0 2 | 0 0 1 1 2 2";
      t.expectedPattern = "not assumed: see meanAttention (sorted position i looks up how many of each digit exist)";
      t.vocab = digits(3);
      m.layers = 2;
      m.heads = 2;
      m.dModel = 32;
      m.dK = m.dV = 16;
      m.causal = true;
      m.mlp = true;
      t.steps = 800;
      t.batch = 16;
      break;
    case TaskKind::KeyValue:
      t.name = "kv-lookup";
      t.description = "look up the value of a key";
      t.inputFormat = "3-4 pairs 'key value' (keys distinct letters a-h, values digits), '?', a key; the target at the "
                      "last position is that key's value: a 3 b 5 c 7 ? b -> 5";
      t.expectedPattern = "the first layer: a previous-token head (each value sees its key); the second layer: the last "
                          "position attends to the matching pair";
      for (int i = 0; i < kKvLetters; ++i) t.vocab.push_back(std::string(1, static_cast<char>('a' + i)));
      for (const std::string& d : digits(kKvDigits)) t.vocab.push_back(d);
      t.vocab.push_back("?");
      m.layers = 2;
      m.heads = 2;
      m.dModel = 32;
      m.dK = m.dV = 16;
      m.causal = true;
      t.steps = 1000;
      t.batch = 32;
      break;
    case TaskKind::Translation:
      t.name = "translation";
      t.description = "toy English -> French, adjective after the noun";
      t.inputFormat = "English source (<= 6 words); decoder input '<bos>' + French, target French + '<eos>': "
                      "the black cat sleeps -> le chat noir dort";
      t.expectedPattern = "cross-attention: the French noun attends to the English noun, the adjective to the "
                          "adjective, across the swap";
      t.vocab = frenchVocab();
      t.sourceVocab = englishVocab();
      m.encoderDecoder = true;
      m.layers = 2;
      m.encoderLayers = 1;
      m.heads = 2;
      m.dModel = 32;
      m.dK = m.dV = 16;
      m.causal = true;
      m.mlp = true;
      t.steps = 800;
      t.batch = 16;
      break;
  }
  t.adam.decaySteps = t.steps;  // linear decay to lr/10 over the run
  m.vocab = static_cast<int>(t.vocab.size());
  m.sourceVocab = static_cast<int>(t.sourceVocab.size());
  m.maxLength = 16;
  return t;
}

TaskData::TaskData(TaskKind kind, uint64_t seed)
    : info_(taskInfo(kind)), trainRng_(streamSeed(seed, "train data")), heldOutRng_(streamSeed(seed, "held-out")) {}

bool TaskData::isHeldOut(const Example& example) const { return exampleHash(example) % 5 == 0; }

Example TaskData::sample(Rng& rng) const {
  Example ex;
  switch (info_.kind) {
    case TaskKind::PreviousToken: {
      for (int t = 0; t < 8; ++t) ex.input.push_back(uniformInt(rng, 10));
      ex.target = ex.input;
      for (int t = 7; t > 0; --t) ex.target[static_cast<size_t>(t)] = ex.input[static_cast<size_t>(t - 1)];
      ex.target[0] = 0;
      ex.lossMask.assign(8, 1);
      ex.lossMask[0] = 0;
      break;
    }
    case TaskKind::Reverse: {
      for (int t = 0; t < 8; ++t) ex.input.push_back(uniformInt(rng, 10));
      ex.target.assign(ex.input.rbegin(), ex.input.rend());
      break;
    }
    case TaskKind::Sort: {
      std::vector<int> digitsIn;
      for (int t = 0; t < 6; ++t) digitsIn.push_back(uniformInt(rng, 3));
      std::vector<int> all = digitsIn, sorted = digitsIn;
      std::sort(sorted.begin(), sorted.end());
      all.insert(all.end(), sorted.begin(), sorted.end());  // 12 tokens
      ex.input.assign(all.begin(), all.end() - 1);            // 11
      ex.target.assign(all.begin() + 1, all.end());           // 11
      ex.lossMask.assign(11, 0);
      for (int t = 5; t < 11; ++t) ex.lossMask[static_cast<size_t>(t)] = 1;  // positions predicting sorted digits
      break;
    }
    case TaskKind::KeyValue: {
      const int pairs = 3 + uniformInt(rng, 2);
      std::vector<int> keys;
      while (static_cast<int>(keys.size()) < pairs) {
        const int k = uniformInt(rng, kKvLetters);
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
      }
      std::vector<int> values;
      for (int i = 0; i < pairs; ++i) {
        values.push_back(uniformInt(rng, kKvDigits));
        ex.input.push_back(keys[static_cast<size_t>(i)]);
        ex.input.push_back(kKvLetters + values.back());
      }
      const int asked = uniformInt(rng, pairs);
      ex.input.push_back(kKvQuery);
      ex.input.push_back(keys[static_cast<size_t>(asked)]);
      const int L = static_cast<int>(ex.input.size());
      ex.target.assign(static_cast<size_t>(L), 0);
      ex.target.back() = kKvLetters + values[static_cast<size_t>(asked)];
      ex.lossMask.assign(static_cast<size_t>(L), 0);
      ex.lossMask.back() = 1;
      break;
    }
    case TaskKind::Translation: {
      const std::vector<std::string>& fr = info_.vocab;
      const std::vector<std::string> en = info_.sourceVocab;
      const bool hasObject = rng.uniform01() < 0.5;
      const int adjectiveOn = uniformInt(rng, hasObject ? 3 : 2);  // 0 none, 1 subject, 2 object
      std::vector<std::string> source, french;
      auto phrase = [&](bool withAdjective) {
        const Determiner& d = kDeterminers[uniformInt(rng, 2)];
        const Noun& n = kNouns[uniformInt(rng, 8)];
        source.push_back(d.en);
        french.push_back(n.feminine ? d.frFeminine : d.frMasculine);
        if (withAdjective) {
          const Adjective& a = kAdjectives[uniformInt(rng, 6)];
          source.push_back(a.en);
          source.push_back(n.en);
          french.push_back(n.fr);
          french.push_back(n.feminine ? a.frFeminine : a.frMasculine);
        } else {
          source.push_back(n.en);
          french.push_back(n.fr);
        }
      };
      phrase(adjectiveOn == 1);
      const Verb& v = kVerbs[uniformInt(rng, 6)];
      source.push_back(v.en);
      french.push_back(v.fr);
      if (hasObject) phrase(adjectiveOn == 2);
      for (const std::string& w : source) ex.source.push_back(idOf(en, w));
      ex.input.push_back(idOf(fr, "<bos>"));
      for (const std::string& w : french) {
        ex.input.push_back(idOf(fr, w));
        ex.target.push_back(idOf(fr, w));
      }
      ex.target.push_back(idOf(fr, "<eos>"));
      break;
    }
  }
  return ex;
}

std::vector<Example> TaskData::trainBatch(int size) {
  std::vector<Example> batch;
  while (static_cast<int>(batch.size()) < size) {
    Example ex = sample(trainRng_);
    if (!isHeldOut(ex)) batch.push_back(std::move(ex));
  }
  return batch;
}

const std::vector<Example>& TaskData::heldOut(int size) {
  while (static_cast<int>(heldOut_.size()) < size) {
    Example ex = sample(heldOutRng_);
    if (isHeldOut(ex)) heldOut_.push_back(std::move(ex));
  }
  return heldOut_;
}

std::vector<ExpectedAttention> TaskData::expectedAttention(const Example& ex) const {
  std::vector<ExpectedAttention> out;
  const int L = static_cast<int>(ex.input.size());
  switch (info_.kind) {
    case TaskKind::PreviousToken:
      for (int t = 1; t < L; ++t) out.push_back({t, {t - 1}, false});
      break;
    case TaskKind::Reverse:
      for (int t = 0; t < L; ++t) out.push_back({t, {L - 1 - t}, false});
      break;
    case TaskKind::Sort:
      break;  // no assumed pattern
    case TaskKind::KeyValue: {
      const int asked = ex.input.back();
      for (int p = 0; p + 1 < L - 2; p += 2)
        if (ex.input[static_cast<size_t>(p)] == asked) out.push_back({L - 1, {p, p + 1}, false});
      break;
    }
    case TaskKind::Translation: {
      // Target word w at decoder position t (predicted there): a noun should look at the English noun, an adjective
      // at the English adjective. Source positions by the English word classes.
      const std::vector<std::string>& fr = info_.vocab;
      const std::vector<std::string>& en = info_.sourceVocab;
      auto isNounFr = [&](int id) {
        for (const Noun& n : kNouns)
          if (fr[static_cast<size_t>(id)] == n.fr) return true;
        return false;
      };
      auto isAdjectiveFr = [&](int id) {
        for (const Adjective& a : kAdjectives)
          if (fr[static_cast<size_t>(id)] == a.frMasculine || fr[static_cast<size_t>(id)] == a.frFeminine) return true;
        return false;
      };
      auto sourceIndexOf = [&](const char* english, int from) {
        for (int s = from; s < static_cast<int>(ex.source.size()); ++s)
          if (en[static_cast<size_t>(ex.source[static_cast<size_t>(s)])] == english) return s;
        return -1;
      };
      // Walk the French target phrase by phrase, matching each noun/adjective to its English source word.
      int searchFrom = 0;
      for (int t = 0; t < static_cast<int>(ex.target.size()); ++t) {
        const int id = ex.target[static_cast<size_t>(t)];
        if (isNounFr(id)) {
          for (const Noun& n : kNouns)
            if (fr[static_cast<size_t>(id)] == n.fr) {
              const int s = sourceIndexOf(n.en, searchFrom);
              if (s >= 0) out.push_back({t, {s}, true});
            }
        } else if (isAdjectiveFr(id)) {
          for (const Adjective& a : kAdjectives)
            if (fr[static_cast<size_t>(id)] == a.frMasculine || fr[static_cast<size_t>(id)] == a.frFeminine) {
              const int s = sourceIndexOf(a.en, 0);
              if (s >= 0) out.push_back({t, {s}, true});
              break;
            }
        } else {
          for (const Verb& v : kVerbs)
            if (fr[static_cast<size_t>(id)] == v.fr) searchFrom = sourceIndexOf(v.en, 0) + 1;  // object nouns after
        }
      }
      break;
    }
  }
  return out;
}

std::string TaskData::describe(const Example& ex) const {
  auto words = [](const std::vector<int>& ids, const std::vector<std::string>& vocab) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : " ") + vocab[static_cast<size_t>(id)];
    return s;
  };
  std::string out;
  if (!ex.source.empty()) out += words(ex.source, info_.sourceVocab) + " | ";
  out += words(ex.input, info_.vocab) + " -> " + words(ex.target, info_.vocab);
  return out;
}

template <typename T>
int predictedToken(const ForwardCache<T>& cache, int t) {
  Eigen::Index best = 0;
  for (Eigen::Index v = 1; v < cache.logits.cols(); ++v)
    if (cache.logits(t, v) > cache.logits(t, best)) best = v;
  return static_cast<int>(best);
}

template <typename T>
void countCorrect(const ForwardCache<T>& cache, const Example& ex, long* correct, long* total) {
  for (Eigen::Index t = 0; t < cache.logits.rows(); ++t) {
    if (!(ex.lossMask.empty() || ex.lossMask[static_cast<size_t>(t)])) continue;
    *correct += predictedToken(cache, static_cast<int>(t)) == ex.target[static_cast<size_t>(t)];
    ++*total;
  }
}

template <typename T>
double tokenAccuracy(const Model<T>& model, const std::vector<Example>& examples) {
  ForwardCache<T> cache;
  long correct = 0, total = 0;
  for (const Example& ex : examples) {
    model.forward(ex, cache);
    countCorrect(cache, ex, &correct, &total);
  }
  return total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
}

template <typename T>
void AttentionMassSum<T>::add(const Model<T>& model, const TaskData& data, const Example& ex) {
  const std::vector<ExpectedAttention> expected = data.expectedAttention(ex);
  if (expected.empty()) return;
  model.forward(ex, cache_);
  // The weights A straight from the forward's cache, each read as double: the numbers of traces()' A (a cast), without
  // building the traces.
  const auto blocks = model.blocksInCache(cache_);
  if (sums_.empty()) {
    for (size_t b = 0; b < blocks.size(); ++b) {
      const bool encoderBlock = blocks[b].name.rfind("encoder", 0) == 0;
      if (encoderBlock) continue;
      for (int h = 0; h < static_cast<int>(blocks[b].cache->A.size()); ++h)
        sums_.push_back({static_cast<int>(b), blocks[b].name, h, 0.0});
    }
    counts_.assign(sums_.size(), 0);
  }
  for (size_t i = 0; i < sums_.size(); ++i) {
    const auto& block = blocks[static_cast<size_t>(sums_[i].block)];
    const MatrixT<T>& A = block.cache->A[static_cast<size_t>(sums_[i].head)];  // (L_q,L_kv)
    for (const ExpectedAttention& e : expected) {
      if (e.cross != block.cross) continue;
      double mass = 0;
      for (int k : e.keys) mass += static_cast<double>(A(e.query, k));
      sums_[i].mass += mass;
      ++counts_[i];
    }
  }
}

template <typename T>
std::vector<AttentionMass> AttentionMassSum<T>::masses() const {
  std::vector<AttentionMass> kept;
  for (size_t i = 0; i < sums_.size(); ++i)
    if (counts_[i] > 0) {
      kept.push_back(sums_[i]);
      kept.back().mass /= static_cast<double>(counts_[i]);
    }
  return kept;
}

template <typename T>
std::vector<AttentionMass> expectedAttentionMass(const Model<T>& model, const TaskData& data,
                                                 const std::vector<Example>& examples) {
  AttentionMassSum<T> sum;
  for (const Example& ex : examples) sum.add(model, data, ex);
  return sum.masses();
}

template <typename T>
std::vector<std::vector<Matrix>> meanAttention(const Model<T>& model, const std::vector<Example>& examples) {
  std::vector<std::vector<Matrix>> sum;
  ForwardCache<T> cache;
  long used = 0;
  for (const Example& ex : examples) {
    if (!examples.empty() && (ex.input.size() != examples[0].input.size() || ex.source.size() != examples[0].source.size()))
      continue;
    model.forward(ex, cache);
    const std::vector<BlockTrace> traces = model.traces(cache);
    if (sum.empty())
      for (const BlockTrace& b : traces) {
        sum.emplace_back();
        for (const HeadTrace& h : b.trace.heads) sum.back().push_back(Matrix::Zero(h.A.rows(), h.A.cols()));
      }
    for (size_t b = 0; b < traces.size(); ++b)
      for (size_t h = 0; h < traces[b].trace.heads.size(); ++h) sum[b][h] += traces[b].trace.heads[h].A;
    ++used;
  }
  for (auto& block : sum)
    for (Matrix& m : block) m /= static_cast<double>(std::max(used, 1L));
  return sum;
}

template <typename T>
void trainOnTask(Model<T>& model, TaskData& data, int steps, int batch, const AdamConfig& adamConfig,
                 const std::function<bool(const TrainStep&)>& onStep) {
  Adam<T> adam(adamConfig);
  ModelParams<T> grads;
  std::vector<MatrixT<T>*> params;
  for (auto& e : parameterList(model.params())) params.push_back(e.second);
  for (int s = 1; s <= steps; ++s) {
    const std::vector<Example> examples = data.trainBatch(batch);
    TrainStep report;
    report.step = s;
    report.loss = static_cast<double>(model.lossAndGradient(examples, grads));
    std::vector<MatrixT<T>*> gradList;
    for (auto& e : parameterList(grads)) gradList.push_back(e.second);
    report.gradNorm = adam.step(params, gradList);
    if (onStep && !onStep(report)) break;
  }
}

#define ATTN_TRAIN_INSTANTIATE_TASKS(T)                                                                        \
  template int predictedToken<T>(const ForwardCache<T>&, int);                                                \
  template void countCorrect<T>(const ForwardCache<T>&, const Example&, long*, long*);                         \
  template double tokenAccuracy<T>(const Model<T>&, const std::vector<Example>&);                              \
  template std::vector<AttentionMass> expectedAttentionMass<T>(const Model<T>&, const TaskData&,              \
                                                               const std::vector<Example>&);                  \
  template class AttentionMassSum<T>;                                                                         \
  template std::vector<std::vector<Matrix>> meanAttention<T>(const Model<T>&, const std::vector<Example>&);   \
  template void trainOnTask<T>(Model<T>&, TaskData&, int, int, const AdamConfig&,                             \
                               const std::function<bool(const TrainStep&)>&);
ATTN_TRAIN_INSTANTIATE_TASKS(float)
ATTN_TRAIN_INSTANTIATE_TASKS(double)
#undef ATTN_TRAIN_INSTANTIATE_TASKS

}  // namespace attn::train
