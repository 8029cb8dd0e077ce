"""Neural-network building blocks with torch.nn's names and semantics."""
from core.nn.parameter import Parameter
from core.nn.modules import *  # noqa: F401,F403
from core.nn import functional, init, utils  # noqa: F401
from core.nn import parallel  # noqa: F401
from core.nn.parallel import DataParallel  # noqa: F401
