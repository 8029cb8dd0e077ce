"""Eager-mode quantization (torch.quantization 1.8): observers, fake quantization, qconfigs,
module fusion and the prepare / convert workflows, on tensorzoo's own int8 kernels."""
from core.quantization.observer import *  # noqa: F401,F403
from core.quantization.fake_quantize import *  # noqa: F401,F403
from core.quantization.qconfig import *  # noqa: F401,F403
from core.quantization.stubs import *  # noqa: F401,F403
from core.quantization.quantization_mappings import *  # noqa: F401,F403
from core.quantization.quantize import *  # noqa: F401,F403
from core.quantization.fuse_modules import *  # noqa: F401,F403
