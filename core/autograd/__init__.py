"""core.autograd: reverse-mode automatic differentiation (mirrors torch.autograd)."""
from core.autograd import functional, profiler
from core.autograd.anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from core.autograd.engine import backward, grad
from core.autograd.function import Function, FunctionCtx
from core.autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                                     is_inference_mode_enabled, no_grad, set_grad_enabled)
from core.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from core.autograd.variable import Variable

__all__ = ["backward", "grad", "Function", "FunctionCtx", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "is_grad_enabled", "is_inference_mode_enabled", "gradcheck", "gradgradcheck",
           "GradcheckError", "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "functional",
           "profiler", "Variable"]
