// Built-in training tasks with generated, seeded data, each with a documented input format, a default model size and
// the attention pattern it is expected to need. Train and held-out examples are disjoint by construction: an example
// is held out iff a hash of its tokens says so (1 in 5), the training sampler redraws held-out ones.
//
//   previous-token  8 tokens of 10 symbols "0".."9"; predict at position t the token at t−1 (position 0 does not
//                   count). 1 layer, 1 head, causal. Expected: position t attends to t−1.
//   reverse         8 tokens of 10 symbols; the output at position t is the input at 7−t. 1 layer, no mask.
//                   Expected: position t attends to 7−t.
//   sort            6 digits of {0,1,2}, then the same digits sorted, predicted one by one (minGPT's demo): input
//                   = the 12 tokens but the last, target = the 12 tokens but the first, only the 6 sorted positions
//                   count. 2 layers, causal, MLP. Expected pattern: not assumed (reported).
//   kv-lookup       3–4 pairs "key value" (keys distinct letters a..h, values digits), then "?" and one of the keys;
//                   the target at the last position is that key's value ("a 3 b 5 c 7 ? b" → 5); only the last
//                   position counts. 2 layers, causal. Expected: the last position (layer 2) attends to the matching
//                   pair (its key or its value).
//   translation     toy English→French, ≤ 6 words a side, adjective after the noun in French, article and adjective
//                   agreeing with the noun's gender ("the black cat sleeps" → "le chat noir dort"); encoder–decoder,
//                   decoder input "<bos>" + French, target French + "<eos>". Expected: in the cross-attention the
//                   French noun attends to the English noun and the adjective to the adjective, across the swap.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/train/adam.h"
#include "core/train/model.h"

namespace attn::train {

enum class TaskKind { PreviousToken, Reverse, Sort, KeyValue, Translation };

// One expected-attention target: at query position `query`, the weights on `keys` should carry the mass, in the
// decoder's (or only stack's) self-attention blocks, or in the cross-attention blocks when `cross`.
struct ExpectedAttention {
  int query = 0;
  std::vector<int> keys;
  bool cross = false;
};

// The mean mass on the expected keys for one head of one block (Model::traces() order).
struct AttentionMass {
  int block = 0;
  std::string blockName;
  int head = 0;
  double mass = 0;  // mean over the expected-attention targets of Σ_{j in keys} A(query, j)
};

struct TaskInfo {
  TaskKind kind;
  std::string name;            // "previous-token", "reverse", "sort", "kv-lookup", "translation"
  std::string description;     // one line
  std::string inputFormat;     // how an example looks, with one example
  std::string expectedPattern; // the attention it should learn
  std::vector<std::string> vocab;        // decoder (or only) tokens: id -> text
  std::vector<std::string> sourceVocab;  // encoder tokens (translation)
  ModelConfig model;           // default size
  int steps = 1000;            // default training steps
  int batch = 16;
  AdamConfig adam;             // default learning rate, warm-up, clipping
};

TaskInfo taskInfo(TaskKind kind);
std::vector<TaskKind> allTasks();
bool parseTaskName(const std::string& name, TaskKind* out);

// Seeded data of one task.
class TaskData {
 public:
  TaskData(TaskKind kind, uint64_t seed);
  const TaskInfo& info() const { return info_; }
  // A fresh training batch (never a held-out example), drawn from the task's training stream.
  std::vector<Example> trainBatch(int size);
  // The fixed held-out set (the first `size` held-out examples of the held-out stream).
  const std::vector<Example>& heldOut(int size = 500);
  bool isHeldOut(const Example& example) const;
  // Where the attention should go for each counted position of an example.
  std::vector<ExpectedAttention> expectedAttention(const Example& example) const;
  // Token texts of an example (for printing): source, input, target.
  std::string describe(const Example& example) const;

 private:
  Example sample(Rng& rng) const;
  TaskInfo info_;
  Rng trainRng_, heldOutRng_;
  std::vector<Example> heldOut_;
};

// The most probable token at position t of a forward pass (argmax of logits row t; the first on ties).
template <typename T>
int predictedToken(const ForwardCache<T>& cache, int t);
// Counts the counted positions of one forward pass (of `example`) and those whose prediction equals the target.
template <typename T>
void countCorrect(const ForwardCache<T>& cache, const Example& example, long* correct, long* total);
// Share of counted positions whose argmax prediction equals the target.
template <typename T>
double tokenAccuracy(const Model<T>& model, const std::vector<Example>& examples);
// The mass on the expected keys per head of every block the task's expectations are about (empty for sort).
template <typename T>
std::vector<AttentionMass> expectedAttentionMass(const Model<T>& model, const TaskData& data,
                                                 const std::vector<Example>& examples);
// The same, an example at a time (the Train view spreads an evaluation over frames): add() each example in order,
// then masses() gives expectedAttentionMass's numbers, bit for bit.
template <typename T>
class AttentionMassSum {
 public:
  void add(const Model<T>& model, const TaskData& data, const Example& example);
  std::vector<AttentionMass> masses() const;

 private:
  std::vector<AttentionMass> sums_;  // per decoder block and head: Σ mass
  std::vector<long> counts_;         // … over this many expected-attention targets
  ForwardCache<T> cache_;
};
// The attention weights averaged over examples of one length (the first example's), per block per head: the
// pattern a task actually learned ((L_q,L_kv) each; examples of another length are skipped).
template <typename T>
std::vector<std::vector<Matrix>> meanAttention(const Model<T>& model, const std::vector<Example>& examples);

// A plain training loop: Adam over `steps` batches of the task; calls onStep after each step (return false to
// stop early). Deterministic: same model seed, data seed and options, same bits.
struct TrainStep {
  int step = 0;
  double loss = 0;
  double gradNorm = 0;  // global norm before clipping
};
template <typename T>
void trainOnTask(Model<T>& model, TaskData& data, int steps, int batch, const AdamConfig& adam,
                 const std::function<bool(const TrainStep&)>& onStep = nullptr);

}  // namespace attn::train
