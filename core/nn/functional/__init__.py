"""torch.nn.functional's functions; one file per family, each listing its names in __all__."""
from core.nn.functional._linear import *  # noqa: F401,F403
from core.nn.functional._conv import *  # noqa: F401,F403
from core.nn.functional._activation import *  # noqa: F401,F403
from core.nn.functional._norm import *  # noqa: F401,F403
from core.nn.functional._dropout import *  # noqa: F401,F403
from core.nn.functional._distance import *  # noqa: F401,F403
from core.nn.functional._pooling import *  # noqa: F401,F403
from core.nn.functional._sampling import *  # noqa: F401,F403
from core.nn.functional._padding import *  # noqa: F401,F403
from core.nn.functional._sparse import *  # noqa: F401,F403
from core.nn.functional._loss import *  # noqa: F401,F403
from core.nn.functional._attention import *  # noqa: F401,F403

from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), [name for name in list(globals()) if not name.startswith("_")])
