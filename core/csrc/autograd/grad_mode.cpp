#include "autograd/grad_mode.h"

#include <atomic>

#include "tensor/errors.h"
#include "tensor/tensor.h"

namespace tz {

namespace {
thread_local bool t_grad_enabled = true;
std::atomic<bool> g_anomaly{false};
}  // namespace

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }
// One switch: the tensor layer marks what is made while it is on (VersionCounter::inference).
bool InferenceMode::is_enabled() { return making_inference_tensors(); }
void InferenceMode::set_enabled(bool enabled) { set_making_inference_tensors(enabled); }
void check_inplace_allowed(const Tensor& self, const char* op) {
  TZ_CHECK(!self.defined() || !self.is_inference() || InferenceMode::is_enabled(), Runtime, op,
           "(): Inplace update to inference tensor outside InferenceMode is not allowed. You can make "
           "a clone to get a normal tensor before doing inplace update.");
}

bool AnomalyMode::is_enabled() { return g_anomaly.load(); }
void AnomalyMode::set_enabled(bool enabled) { g_anomaly = enabled; }

}  // namespace tz
