// A pretrained checkpoint read a piece at a time (the page hands over the file's bytes across async calls; loadModel
// pushes a ByteStream through the same reader): safetensors' push reader (safetensors.h) with the tensor names of the
// architecture row the header picks (checkpoint.h). Once the header is read the settings are completed and checked
// against the shapes, the `onSettings` hook may refuse the model before any weight is read (e.g. the page's memory),
// and each tensor the row names is converted into its float32 slot as its bytes arrive (the row's ignored tensors and
// other keys read past): the linear layers' weights straight into their packed panels, the token embedding and an
// untied head as their transposes' panels, so no tensor is ever held twice.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "core/models/checkpoint.h"
#include "core/models/pretrained_model.h"
#include "core/models/safetensors.h"

namespace attn::models {

class ModelLoader {
 public:
  // Called once the header is read and the settings completed: the model as far as it is known (its row and
  // settings) and the bytes its weights take in float32 (each stored once). May throw InputError to refuse it.
  using SettingsHook = std::function<void(const PretrainedModel&, std::uint64_t floatBytes)>;
  // fileBytes: the .safetensors file's length; config: config.json, parsed (parseConfigFile; an empty one: from the
  // shapes).
  ModelLoader(std::uint64_t fileBytes, ConfigFile config, SettingsHook onSettings = {});
  ModelLoader(const ModelLoader&) = delete;
  ModelLoader& operator=(const ModelLoader&) = delete;

  void push(const void* data, std::size_t n);  // the next bytes of the file, in order (throws InputError)
  PretrainedModel finish();                    // the end of the file: the model and its sha256 (throws InputError)

  std::uint64_t position() const { return push_.position(); }
  std::uint64_t fileBytes() const { return push_.fileBytes(); }
  bool headerRead() const { return push_.headerRead(); }
  const PretrainedModel& model() const { return model_; }  // its row and settings complete once headerRead()

 private:
  void onHeader(const std::map<std::string, TensorInfo>& tensors);
  SafetensorsPush::ValuesSink place(const TensorInfo& t);
  static std::uint64_t floatsStored(const SlotTarget& target, const TensorInfo& t);
  PretrainedModel model_;
  ConfigFile config_;
  SettingsHook onSettings_;
  std::map<std::string, SlotTarget> slots_;  // tensor name -> where it goes in model_
  SafetensorsPush push_;
};

// Reads a whole checkpoint from `file` with config.json's text ("" for none; `configWhat` names it in messages).
PretrainedModel loadModel(ByteStream& file, const std::string& configText = "",
                          const std::string& configWhat = "config.json");

}  // namespace attn::models
