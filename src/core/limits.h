// Caps on every size a user can ask for. They keep the page responsive and bound WebAssembly memory:
// the largest trace is heads * (3 L*d_k-ish projections + 4 L*L score-like matrices) doubles; see README "Limits".
// The walkthrough (config.cpp validate), the training engine (train/model.cpp and train/session.cpp validate), the
// CLI's options and the page's controls all read them from here.
#pragma once

namespace attn::limits {

constexpr int kMaxTokens = 512;      // per sentence, after padding; also a trained model's longest sequence
constexpr int kMaxTextBytes = 16384; // raw text accepted before tokenizing
constexpr int kMaxDModel = 1024;
constexpr int kMaxHeads = 16;
constexpr int kMaxDk = 1024;         // also d_v
constexpr double kMaxAbsValue = 1e6; // any matrix cell typed or imported; also a custom scale

// ---- the training engine (train/model.h ModelConfig, train/session.h SessionOptions) ----
// Every block of a trained model is a walkthrough Config (train/model_trace.h), so d_model, heads, d_k, d_v and the
// sequence length share the walkthrough's caps above.
constexpr int kMaxVocab = 100000;            // tokens of a model's vocabulary (and of its source vocabulary)
constexpr int kMaxLayers = 3;                // layers of a stack (the decoder or only stack; the encoder)
constexpr int kMaxMlpHidden = 4096;          // hidden width of a layer's MLP
constexpr int kMaxTrainSteps = 20000;        // planned steps of a training session
constexpr int kMaxBatch = 256;               // examples per batch of a training session
constexpr int kMinHeldOut = 10;              // held-out examples an evaluation measures
constexpr int kMaxHeldOut = 2000;
constexpr double kMaxLearningRate = 1.0;     // a session's Adam learning rate is in (0, kMaxLearningRate]
constexpr double kMaxQkInit = 1000.0;        // the initial W_q, W_k factor (SessionOptions::qkInit) is in (0, this]
constexpr double kMaxSessionParameters = 2e6;  // a model the page trains (in the browser, a slice per frame)
// `attnlab train` runs natively (or under node) without a frame to keep: wider bounds for the same options.
constexpr int kMaxCliTrainSteps = 1000000;
constexpr int kMaxCliBatch = 4096;
constexpr double kMaxCliLearningRate = 10.0;
constexpr int kMinCliHeldOut = 1;
constexpr int kMaxCliHeldOut = 100000;
constexpr double kMaxCliParameters = 20e6;

// ---- the Train view's own bounds, narrower than the engine's ----
// d_model: the page trains in the browser's one thread, a slice per frame; 2..512 are the bounds its d_model field
// has had since the Train view began (the engine takes 1..kMaxDModel). Its other fields (layers, heads, d_k, steps)
// take the engine's full ranges.
constexpr int kMinTrainDModelOnPage = 2;
constexpr int kMaxTrainDModelOnPage = 512;

}  // namespace attn::limits
