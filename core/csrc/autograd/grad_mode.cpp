#include "autograd/grad_mode.h"

#include <atomic>

namespace tz {

namespace {
thread_local bool t_grad_enabled = true;
thread_local bool t_inference = false;
std::atomic<bool> g_anomaly{false};
}  // namespace

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }
bool InferenceMode::is_enabled() { return t_inference; }
void InferenceMode::set_enabled(bool enabled) { t_inference = enabled; }
bool AnomalyMode::is_enabled() { return g_anomaly.load(); }
void AnomalyMode::set_enabled(bool enabled) { g_anomaly = enabled; }

}  // namespace tz
