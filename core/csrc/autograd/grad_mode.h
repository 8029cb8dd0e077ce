// Thread-local switches: whether ops record graphs (no_grad) and inference mode.
#pragma once

namespace tz {

struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

struct InferenceMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

class Tensor;
// Raises (PyTorch's words, naming `op`) when `self`, about to be written in place, is an
// inference tensor and inference mode is off: autograd could not trust its version then.
void check_inplace_allowed(const Tensor& self, const char* op);

// Anomaly mode is process-wide, like PyTorch's.
struct AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// RAII guard used by C++ code (the engine runs formulas without recording unless create_graph).
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : previous_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool previous_;
};

}  // namespace tz
