#include "autograd/grad_mode.h"

#include <atomic>

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
bool AnomalyMode::is_enabled() { return g_anomaly.load(); }
void AnomalyMode::set_enabled(bool enabled) { g_anomaly = enabled; }

}  // namespace tz
