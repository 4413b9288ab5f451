// A GPT-2 checkpoint read a piece at a time (the page hands over Blob slices across async calls; loadGpt2 in
// gpt2.h pushes a ByteStream through the same loader): safetensors' push reader (safetensors.h) with GPT-2's tensor
// names. Once the header is read the config is completed and checked against the shapes (gpt2_config.h), the
// `onConfig` hook may refuse the model before any weight is read (e.g. the page's memory), and each tensor GPT-2
// uses is converted into its float32 slot as its bytes arrive (the h.N.attn.bias buffers and other keys read past):
// the weight matrices straight into their packed panels (kernels::PackedWeight; wte and lm_head as their transposes'),
// so no tensor is ever held twice.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/models/gpt2.h"
#include "core/models/safetensors.h"

namespace attn::models {

class Gpt2Loader {
 public:
  // Called once the header is read and the config completed: the model's settings and the bytes its weights take
  // in float32 (each stored once). May throw InputError to refuse it.
  using ConfigHook = std::function<void(const Gpt2Config&, std::uint64_t floatBytes)>;
  // fileBytes: the .safetensors file's length; config: config.json's settings (nullptr: from the shapes).
  Gpt2Loader(std::uint64_t fileBytes, const Gpt2Config* config, ConfigHook onConfig = {});
  Gpt2Loader(const Gpt2Loader&) = delete;
  Gpt2Loader& operator=(const Gpt2Loader&) = delete;

  void push(const void* data, std::size_t n);  // the next bytes of the file, in order (throws InputError)
  Gpt2Model finish();                          // the end of the file: the model, its sha256 (throws InputError)

  std::uint64_t position() const { return push_.position(); }
  std::uint64_t fileBytes() const { return push_.fileBytes(); }
  bool headerRead() const { return push_.headerRead(); }
  const Gpt2Config& config() const { return model_.config; }  // complete once headerRead()

 private:
  // Where a tensor goes in model_: one of the three.
  struct Slot {
    MatrixT<float>* row = nullptr;                  // a bias, a layer norm's γ or β, wpe: as stored
    kernels::PackedWeight* packed = nullptr;        // a block's weight W of x·W + b: W's panels
    kernels::PackedTransposed* transposed = nullptr;  // wte, lm_head (V,d): the panels of its transpose
    std::uint64_t floatsStored(const TensorInfo& t) const;
  };
  void onHeader(const std::map<std::string, TensorInfo>& tensors);
  SafetensorsPush::ValuesSink place(const TensorInfo& t);
  Gpt2Model model_;
  std::optional<Gpt2Config> given_;
  ConfigHook onConfig_;
  std::map<std::string, Slot> slots_;  // tensor name -> where it goes in model_
  SafetensorsPush push_;
};

}  // namespace attn::models
