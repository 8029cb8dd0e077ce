"""torchvision 0.9's models.utils: the hub's loader under its old name."""
from hub import load_state_dict_from_url  # noqa: F401
