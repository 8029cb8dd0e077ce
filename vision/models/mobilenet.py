"""torchvision 0.9's models.mobilenet: both MobileNet generations under one name."""
from vision.models.mobilenetv2 import *  # noqa: F401,F403
from vision.models.mobilenetv2 import __all__ as mv2_all
from vision.models.mobilenetv3 import *  # noqa: F401,F403
from vision.models.mobilenetv3 import __all__ as mv3_all

__all__ = mv2_all + mv3_all
