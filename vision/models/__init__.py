"""Model definitions with torchvision 0.9's names, module layout and state_dict keys, so the
official checkpoints load strictly; ``pretrained=True`` downloads through the hub."""
from vision.models.resnet import *  # noqa: F401,F403
from vision.models.mobilenet import *  # noqa: F401,F403
from vision.models.vgg import *  # noqa: F401,F403
from vision.models._api import Weights, WeightsEnum, get_model, get_model_weights, get_weight, list_models  # noqa: F401
from vision.models._meta import imagenet_categories  # noqa: F401
from vision.models import detection  # noqa: F401,E402
from vision.models import segmentation  # noqa: F401,E402
