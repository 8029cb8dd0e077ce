"""Every nn.Module class; one file per family, each listing its classes in __all__."""
import sys as _sys

from core.nn.modules.module import *  # noqa: F401,F403
from core.nn.modules.container import *  # noqa: F401,F403
from core.nn.modules.linear import *  # noqa: F401,F403
from core.nn.modules.flatten import *  # noqa: F401,F403
from core.nn.modules.conv import *  # noqa: F401,F403
from core.nn.modules.fold import *  # noqa: F401,F403
from core.nn.modules.activation import *  # noqa: F401,F403
from core.nn.modules.batchnorm import *  # noqa: F401,F403
from core.nn.modules.normalization import *  # noqa: F401,F403
from core.nn.modules.dropout import *  # noqa: F401,F403
from core.nn.modules.distance import *  # noqa: F401,F403
from core.nn.modules.pooling import *  # noqa: F401,F403
from core.nn.modules.upsampling import *  # noqa: F401,F403
from core.nn.modules.pixelshuffle import *  # noqa: F401,F403
from core.nn.modules.padding import *  # noqa: F401,F403
from core.nn.modules.sparse import *  # noqa: F401,F403
from core.nn.modules.loss import *  # noqa: F401,F403
from core.nn.modules.rnn import *  # noqa: F401,F403
from core.nn.modules.transformer import *  # noqa: F401,F403

# Only the families' classes are public: submodule names (e.g. `utils`) must not shadow
# core.nn's own subpackages through `from core.nn.modules import *`.
__all__ = [name for family in ("module", "container", "linear", "flatten", "conv", "fold", "activation",
                               "batchnorm", "normalization", "dropout", "distance", "pooling",
                               "upsampling", "pixelshuffle", "padding", "sparse", "loss", "rnn", "transformer")
           for name in _sys.modules[f"{__name__}.{family}"].__all__]
